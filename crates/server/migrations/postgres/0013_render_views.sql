-- The photos of a multi-view render after its first (which `render_photos` keeps), by their place in the
-- creation's `image_urls`: a result's image `image_index` was made from view `image_index`.
CREATE TABLE render_views (
    render_id  TEXT NOT NULL,
    view_index BIGINT NOT NULL,
    address    TEXT NOT NULL,
    PRIMARY KEY (render_id, view_index)
);
