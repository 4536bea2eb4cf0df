//! Undo and redo: each step keeps, packed one bit per pixel, only the 64x64 tiles it changed, so a long brush
//! stroke costs kilobytes and a whole-mask edit of 12 megapixels 1.5 MB; the oldest steps go beyond a memory budget.

use std::collections::VecDeque;

use crate::Rect;
use crate::bitmap::Bitmap;

/// A tile's pixels as they were (or are, for redo), packed.
type SavedTile = (u32, Box<[u8]>);

/// The tiles an edit in progress has touched, saved before it first changed them.
pub struct Snapshot {
    touched: Vec<bool>,
    tiles: Vec<SavedTile>,
    across: u32,
}

impl Snapshot {
    pub fn new(bitmap: &Bitmap) -> Self {
        let (across, down) = bitmap.tiles();
        Self { touched: vec![false; (across * down) as usize], tiles: Vec::new(), across }
    }

    /// Saves the tiles under columns `x0..=x1` of row `y` that this edit has not touched yet.
    pub fn save_span(&mut self, bitmap: &Bitmap, y: u32, x0: u32, x1: u32) {
        let row = (y / crate::bitmap::TILE) * self.across;
        for column in x0 / crate::bitmap::TILE..=x1 / crate::bitmap::TILE {
            self.save(bitmap, row + column);
        }
    }

    pub fn save_all(&mut self, bitmap: &Bitmap) {
        for index in 0..self.touched.len() as u32 {
            self.save(bitmap, index);
        }
    }

    fn save(&mut self, bitmap: &Bitmap, index: u32) {
        let touched = &mut self.touched[index as usize];
        if !*touched {
            *touched = true;
            self.tiles.push((index, bitmap.pack_tile(index)));
        }
    }

    /// Puts every saved tile back; returns the pixels restored.
    pub fn restore(self, bitmap: &mut Bitmap) -> Rect {
        self.tiles.iter().fold(Rect::EMPTY, |rect, (index, bits)| {
            bitmap.unpack_tile(*index, bits);
            rect.union(bitmap.tile_rect(*index))
        })
    }
}

/// One step: the tiles it changed, as they were before it (on the undo side) or after it (on the redo side).
struct Step {
    tiles: Vec<SavedTile>,
}

impl Step {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Step>()
            + self.tiles.capacity() * std::mem::size_of::<SavedTile>()
            + self.tiles.iter().map(|(_, bits)| bits.len()).sum::<usize>()
    }

    /// Swaps the saved tiles with the bitmap's: undoing a step gives the step that redoes it, and the reverse.
    fn swap(&mut self, bitmap: &mut Bitmap) -> Rect {
        self.tiles.iter_mut().fold(Rect::EMPTY, |rect, (index, bits)| {
            let now = bitmap.pack_tile(*index);
            bitmap.unpack_tile(*index, bits);
            *bits = now;
            rect.union(bitmap.tile_rect(*index))
        })
    }
}

pub struct History {
    undo: VecDeque<Step>,
    redo: Vec<Step>,
    bytes: usize,
    budget: usize,
}

impl History {
    pub fn new(budget: usize) -> Self {
        Self { undo: VecDeque::new(), redo: Vec::new(), bytes: 0, budget }
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn undo_steps(&self) -> usize {
        self.undo.len()
    }

    pub fn redo_steps(&self) -> usize {
        self.redo.len()
    }

    pub fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        self.forget_oldest();
    }

    /// Keeps a finished edit as a step (only the tiles it really changed; nothing when it changed none) and drops
    /// what could be redone.
    pub fn push(&mut self, snapshot: Snapshot, bitmap: &Bitmap) {
        let mut tiles: Vec<SavedTile> =
            snapshot.tiles.into_iter().filter(|(index, before)| *bitmap.pack_tile(*index) != **before).collect();
        if tiles.is_empty() {
            return;
        }
        tiles.shrink_to_fit();
        for step in self.redo.drain(..) {
            self.bytes -= step.bytes();
        }
        let step = Step { tiles };
        self.bytes += step.bytes();
        self.undo.push_back(step);
        self.forget_oldest();
    }

    pub fn undo(&mut self, bitmap: &mut Bitmap) -> Rect {
        let Some(mut step) = self.undo.pop_back() else { return Rect::EMPTY };
        let rect = step.swap(bitmap);
        self.redo.push(step);
        rect
    }

    pub fn redo(&mut self, bitmap: &mut Bitmap) -> Rect {
        let Some(mut step) = self.redo.pop() else { return Rect::EMPTY };
        let rect = step.swap(bitmap);
        self.undo.push_back(step);
        rect
    }

    /// Drops the oldest steps while over budget, always keeping the newest.
    fn forget_oldest(&mut self) {
        while self.bytes > self.budget && self.undo.len() > 1 {
            if let Some(step) = self.undo.pop_front() {
                self.bytes -= step.bytes();
            }
        }
    }
}
