//! Engine benchmarks that need the real binary: the delay from `stop` to
//! `bestmove` (target: under 10 ms), measured as a GUI sees it, through the
//! pipes of a running `tuzdyk` process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

fn stop_latency(c: &mut Criterion) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tuzdyk"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, received) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        writeln!(stdin, "{line}").expect("engine input");
        stdin.flush().expect("engine input");
    };
    send("uci");
    send("setoption name Hash value 64");
    send("position startpos moves 3 3 9 8");
    send("isready");
    while !received
        .recv()
        .expect("engine output")
        .starts_with("readyok")
    {}

    let mut group = c.benchmark_group("protocol");
    group.sample_size(30);
    group.bench_function("stop_to_bestmove", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                send("go infinite");
                // Let the search get deep enough to be busy.
                std::thread::sleep(Duration::from_millis(30));
                let stopped = Instant::now();
                send("stop");
                loop {
                    let line = received.recv().expect("engine output");
                    if line.starts_with("bestmove") {
                        break;
                    }
                }
                total += stopped.elapsed();
            }
            total
        });
    });
    group.finish();
    send("quit");
    let _ = child.wait();
}

criterion_group!(benches, stop_latency);
criterion_main!(benches);
