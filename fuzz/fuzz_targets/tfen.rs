#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tuzdyk_fuzz::checks::tfen(data);
});
