//! Parsing arbitrary bytes as any response type never panics: a deterministic mutation fuzzer over the fixtures
//! plus random bytes. 100,000 inputs by default; more with `VSTAGE_FUZZ_INPUTS=1000000`.
#![cfg(not(target_arch = "wasm32"))]

use serde::de::DeserializeOwned;
use vstage_api::*;

const DEFAULT_INPUTS: usize = 100_000;

/// JSON fragments that tend to break parsers that trust their input.
const TOKENS: &[&[u8]] = &[
    b"null",
    b"[]",
    b"{}",
    b"\"\"",
    b"1e999",
    b"-0",
    b"true",
    b"18446744073709551616",
    b"-1",
    b"0.5",
    b"\"\\u0000\"",
    b"\"done\"",
    b"\"staging\"",
    b"{\"type\":\"staging\"}",
    b"[{}]",
    b"\"\\ud800\"",
];

fn parse_as_everything(bytes: &[u8]) {
    fn parse<T: DeserializeOwned>(bytes: &[u8]) {
        let _ = serde_json::from_slice::<T>(bytes);
    }
    parse::<Render>(bytes);
    parse::<RenderPage>(bytes);
    parse::<Variation>(bytes);
    parse::<VariationPage>(bytes);
    parse::<Config>(bytes);
    parse::<AddedVariations>(bytes);
    parse::<BulkCreatedRenders>(bytes);
    parse::<BulkAddedVariations>(bytes);
    parse::<Analysis>(bytes);
    parse::<User>(bytes);
    parse::<Message>(bytes);
    parse::<WebhookEvent>(bytes);
    parse::<CreateRender>(bytes);
    parse::<AddVariations>(bytes);
    parse::<v1::Ping>(bytes);
    parse::<v1::Options>(bytes);
    parse::<v1::Render>(bytes);
    parse::<v1::Created>(bytes);
    parse::<v1::CreateRender>(bytes);
    parse::<v1::CreateVariation>(bytes);
}

fn mutate(rng: &mut fastrand::Rng, input: &mut Vec<u8>) {
    for _ in 0..rng.usize(1..=4) {
        let at = if input.is_empty() { 0 } else { rng.usize(0..input.len()) };
        match rng.u8(0..6) {
            0 if !input.is_empty() => input[at] ^= 1 << rng.u8(0..8),
            1 => input.insert(at, rng.u8(..)),
            2 if !input.is_empty() => {
                let end = (at + rng.usize(1..16)).min(input.len());
                input.drain(at..end);
            }
            3 => {
                let token = TOKENS[rng.usize(0..TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            4 if !input.is_empty() => {
                let end = (at + rng.usize(1..32)).min(input.len());
                let copy: Vec<u8> = input[at..end].to_vec();
                input.splice(at..at, copy);
            }
            _ => input.truncate(at),
        }
    }
}

#[test]
fn arbitrary_bytes_never_make_a_parser_panic() {
    let inputs: usize = std::env::var("VSTAGE_FUZZ_INPUTS").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_INPUTS);
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut seeds: Vec<Vec<u8>> =
        std::fs::read_dir(dir).unwrap().map(|entry| std::fs::read(entry.unwrap().path()).unwrap()).collect();
    seeds.sort();
    let mut rng = fastrand::Rng::with_seed(0x5eed_u64);
    for index in 0..inputs {
        let input = if index % 10 == 0 {
            (0..rng.usize(0..256)).map(|_| rng.u8(..)).collect()
        } else {
            let mut input = seeds[rng.usize(0..seeds.len())].clone();
            mutate(&mut rng, &mut input);
            input
        };
        parse_as_everything(&input);
    }
    println!("parsed {inputs} inputs as 20 types each without a panic");
}
