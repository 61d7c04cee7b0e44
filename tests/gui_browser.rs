//! The page in a real browser: Debian's headless Chromium, driven through
//! chromedriver (WebDriver), plays a whole game against the engine by
//! clicking holes, checks the highlighted landing hole against the rules,
//! asks for a hint, takes a move back, is refused a bad TFEN, and switches
//! languages. Chromium missing is a failure, with how to install it.
//!
//! `TUZDYK_GUI_SCREENSHOT=docs/gui.png` also saves a screenshot of the board.

mod gui_support;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

use gui_support::{Server, TIMEOUT};
use tuzdyk_notation::tfen;
use tuzdyk_protocol::Level;
use tuzdyk_rules::Move;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free port, and the browser session it runs.
struct Browser {
    driver: Child,
    client: Client,
    _profile: TempDir,
}

/// A fresh profile directory, removed afterwards.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    async fn start(name: &str) -> Browser {
        for program in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                Path::new(program).exists(),
                "{program} is missing: install Chromium with `apt-get update && apt-get install -y chromium chromium-driver`"
            );
        }
        let profile = std::env::temp_dir().join(format!("tuzdyk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_string(),
            json!({"binary": CHROMIUM, "args": args}),
        );
        let deadline = Instant::now() + TIMEOUT;
        let client = loop {
            let connected = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await;
            match connected {
                Ok(client) => break client,
                Err(e) if Instant::now() > deadline => panic!("no WebDriver session: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Browser {
            driver,
            client,
            _profile: TempDir(profile),
        }
    }

    async fn eval(&self, script: &str) -> Value {
        self.client
            .execute(&format!("return ({script});"), vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    async fn body(&self, key: &str) -> String {
        self.eval(&format!("document.body.dataset.{key} ?? ''"))
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    async fn plies(&self) -> u64 {
        self.body("plies").await.parse().unwrap_or(0)
    }

    /// Waits until `script` is true in the page.
    async fn wait(&self, what: &str, script: &str) {
        let deadline = Instant::now() + TIMEOUT;
        while self.eval(script).await != Value::Bool(true) {
            assert!(
                Instant::now() < deadline,
                "no {what} within {TIMEOUT:?} ({script})"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    async fn select(&self, css: &str, value: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap()
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
    }

    async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    async fn hover(&self, css: &str) {
        let element = self.client.find(Locator::Css(css)).await.unwrap();
        self.hover_element(element).await;
    }

    async fn hover_element(&self, element: fantoccini::elements::Element) {
        let mouse = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        self.client.perform_actions(mouse).await.expect("a hover");
    }

    /// Opens the page and starts a game against the engine at `level`.
    async fn new_game(&self, server: &Server, level: &str) {
        self.client.goto(&server.url).await.expect("the page loads");
        self.wait("the connection", "document.body.dataset.connected === '1' && document.body.dataset.version !== undefined").await;
        self.select("#animation", "off").await;
        self.select("#mode", "engine").await;
        self.select("#human", "white").await;
        self.select("#strength", &format!("level:{level}")).await;
        let version = self.body("version").await;
        self.click("#new-game").await;
        self.wait(
            "the new game",
            &format!("document.body.dataset.version !== '{version}' && document.body.dataset.plies === '0' && document.body.dataset.playable === '1'"),
        )
        .await;
    }

    /// Hovers over every playable hole: the one marked as landing must be
    /// where the rules say the last stone lands.
    async fn check_landings(&self) -> usize {
        let text = self.eval("document.getElementById('tfen').value").await;
        let pos = tfen::parse(text.as_str().unwrap()).expect("the page's TFEN");
        let mut checked = 0;
        for mv in pos.legal_moves() {
            let origin = pos.side_to_move().index() * 9 + mv.index();
            self.hover("#turn").await;
            self.hover(&format!(".hole[data-index='{origin}']")).await;
            self.wait(
                "the landing mark",
                "document.querySelectorAll('.hole.landing').length === 1",
            )
            .await;
            let landing = self
                .eval("Number(document.querySelector('.hole.landing').dataset.index)")
                .await;
            assert_eq!(landing, json!(pos.landing_of(mv)), "hole {mv} in {text}");
            let preview = self.text("#preview-text").await;
            assert!(
                preview.starts_with(&format!("Hole {}:", mv.number())),
                "{preview}"
            );
            checked += 1;
        }
        checked
    }

    /// The board with the engine's lines and a move's preview, as a PNG.
    async fn screenshot(&self, path: &str) {
        self.click("#analysis-toggle").await;
        self.wait(
            "the lines",
            "document.querySelectorAll('#lines li').length === 3",
        )
        .await;
        self.hover("#turn").await;
        // The last playable hole (`:last-of-type` matched nothing when the
        // row's last hole was empty).
        let playable = self
            .client
            .find_all(Locator::Css(".hole.playable"))
            .await
            .unwrap();
        let last = playable.into_iter().last().expect("a playable hole");
        self.hover_element(last).await;
        self.wait(
            "the preview",
            "document.getElementById('preview-text').textContent !== ''",
        )
        .await;
        let png = self.client.screenshot().await.expect("a screenshot");
        std::fs::write(path, png).expect("the screenshot is written");
        self.click("#analysis-toggle").await;
    }

    /// Clicks the first playable hole and waits for the engine's answer
    /// (or the end).
    async fn play_one(&self) {
        let plies = self.plies().await;
        self.click(".hole.playable").await;
        self.wait(
            "the engine's answer",
            &format!("Number(document.body.dataset.plies) >= {} && (document.body.dataset.playable === '1' || document.body.dataset.over === '1')", plies + 1),
        )
        .await;
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_page_plays_a_whole_game_by_clicks_and_marks_the_landing_holes() {
    runtime().block_on(async {
        let server = Server::start(&[]);
        let browser = Browser::start("game").await;
        browser.new_game(&server, "beginner").await;
        let mut landings = 0;
        for _ in 0..4 {
            landings += browser.check_landings().await;
            browser.play_one().await;
        }
        assert!(landings >= 20, "{landings}");
        if let Ok(path) = std::env::var("TUZDYK_GUI_SCREENSHOT") {
            browser.screenshot(&path).await;
        }
        while browser.body("over").await != "1" {
            browser.play_one().await;
        }
        let ending = browser.text("#ending-text").await;
        assert!(ending.contains("Final count: White"), "{ending}");
        let record = browser.text("#record").await;
        assert!(record.contains("[Result \""), "{record}");
        let _ = browser.client.clone().close().await;
    });
}

#[test]
fn the_page_gives_hints_undoes_refuses_bad_tfen_and_speaks_three_languages() {
    runtime().block_on(async {
        let server = Server::start(&[]);
        let browser = Browser::start("tools").await;
        browser.new_game(&server, "novice").await;
        browser.play_one().await;
        browser.play_one().await;
        assert_eq!(browser.plies().await, 4);

        browser.click("#hint").await;
        browser
            .wait(
                "the hint",
                "document.getElementById('hint-text').textContent.startsWith('Hint: play ')",
            )
            .await;
        browser
            .wait(
                "the hint's hole",
                "document.querySelectorAll('.hole.hint').length === 1",
            )
            .await;
        let hint = browser
            .eval("Number(document.querySelector('.hole.hint').dataset.number)")
            .await;
        assert!(Move::from_number(hint.as_u64().unwrap() as u32).is_some());

        browser.click("#undo").await;
        browser
            .wait(
                "the undo",
                "document.body.dataset.plies === '2' && document.body.dataset.playable === '1'",
            )
            .await;

        let tfen_before = browser.eval("document.getElementById('tfen').value").await;
        let input = browser.client.find(Locator::Css("#tfen")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys("9S,9S/9S 0 0 S 1").await.unwrap();
        browser.click("#set-up").await;
        browser
            .wait(
                "the error",
                "document.getElementById('message').dataset.kind === 'error'",
            )
            .await;
        let message = browser.text("#message").await;
        assert!(message.starts_with("Bad TFEN: "), "{message}");
        assert!(message.contains("North row has 2 holes"), "{message}");
        assert_eq!(browser.plies().await, 2);
        browser.eval("document.getElementById('tfen').blur()").await;
        browser.click("#flip").await;
        browser.click("#flip").await;
        let tfen_after = browser.eval("document.getElementById('tfen').value").await;
        assert_eq!(tfen_before, tfen_after);

        // With the animation on, the stones are sown one by one.
        browser.select("#animation", "slow").await;
        let plies = browser.plies().await;
        browser.click(".hole.playable").await;
        browser.wait("the sowing", "document.querySelectorAll('.hole.sowing').length === 1").await;
        browser
            .wait(
                "the engine's answer",
                &format!("Number(document.body.dataset.plies) === {} && document.body.dataset.playable === '1' && document.querySelectorAll('.hole.sowing').length === 0", plies + 2),
            )
            .await;

        // The strength menu is the engine's whole ladder, weakest first,
        // each level named in the page's language with its PlayOK rating.
        let ladder: Vec<String> = Level::LADDER
            .iter()
            .map(|level| format!("level:{}", level.name()))
            .collect();
        let candidate = format!("(PlayOK ~{})", Level::Candidate.rating().elo);
        for (language, new_game, undo, candidate_name) in [
            ("ru", "Новая партия", "Вернуть ход", "кандидат"),
            ("kk", "Жаңа ойын", "Жүрісті қайтару", "үміткер"),
            ("en", "New game", "Undo", "candidate"),
        ] {
            browser.select("#language", language).await;
            assert_eq!(browser.text("#new-game").await, new_game);
            assert_eq!(browser.text("#undo").await, undo);
            assert_eq!(browser.body("lang").await, language);
            let menu = browser
                .eval("[...document.getElementById('strength').options].filter((o) => o.value.startsWith('level:')).map((o) => [o.value, o.textContent])")
                .await;
            let menu: Vec<(String, String)> = serde_json::from_value(menu).unwrap();
            let values: Vec<&String> = menu.iter().map(|(value, _)| value).collect();
            assert_eq!(values, ladder.iter().collect::<Vec<_>>(), "{language}");
            let shown = &menu[Level::LADDER.iter().position(|&l| l == Level::Candidate).unwrap()].1;
            assert_eq!(*shown, format!("{candidate_name} {candidate}"), "{language}");
        }
        let _ = browser.client.clone().close().await;
    });
}

/// The figures of the GUI issue, printed, never asserted (run it alone, on
/// a quiet machine):
/// `cargo test --release --test gui_browser -- --ignored --nocapture`.
/// From a click to the engine's reply drawn, less the engine's own
/// `movetime`; the bytes of the page; the server's memory with four games,
/// each with its engine, open.
#[test]
#[ignore = "a measurement, not a test"]
fn measure_click_to_reply_page_size_and_memory() {
    runtime().block_on(async {
        const MOVETIME_MS: f64 = 500.0;
        let server = Server::start(&[]);
        let browser = Browser::start("measure").await;
        browser.new_game(&server, "beginner").await;
        browser.select("#strength", "time:500").await;
        browser.click("#new-game").await;
        browser.wait("the timed game", "document.body.dataset.plies === '0' && document.body.dataset.playable === '1'").await;
        browser
            .eval("(document.addEventListener('pointerdown', () => { window.clickedAt = performance.now(); }, true), true)")
            .await;
        let mut overheads = Vec::new();
        for _ in 0..10 {
            if browser.body("over").await == "1" {
                break;
            }
            let target = browser.plies().await + 2;
            browser
                .eval(&format!(
                    "(window.repliedAt = null, new MutationObserver((_, observer) => {{ if (Number(document.body.dataset.plies) >= {target}) {{ window.repliedAt = performance.now(); observer.disconnect(); }} }}).observe(document.body, {{attributes: true}}), true)"
                ))
                .await;
            browser.play_one().await;
            browser.wait("the reply's time", "window.repliedAt !== null").await;
            let elapsed = browser.eval("window.repliedAt - window.clickedAt").await;
            overheads.push(elapsed.as_f64().unwrap() - MOVETIME_MS);
            println!("click to reply on screen: {:.1} ms", elapsed.as_f64().unwrap());
        }
        overheads.sort_by(f64::total_cmp);
        println!(
            "click to reply on screen, beyond movetime {MOVETIME_MS} ms: median {:.1} ms, min {:.1} ms, max {:.1} ms over {} moves",
            overheads[overheads.len() / 2],
            overheads[0],
            overheads[overheads.len() - 1],
            overheads.len()
        );
        let mut bytes = 0;
        for path in ["/", "/style.css", "/app.js", "/board.js", "/texts.js", "/levels.js"] {
            let (status, body) = server.get(path, &[("Host", &server.authority())]);
            assert_eq!(status, 200);
            bytes += body.len();
        }
        println!("page: {bytes} bytes of HTML, CSS and JS");
        let mut pages = Vec::new();
        for _ in 0..3 {
            let mut page = gui_support::Client::connect(&server, None);
            page.new_game("engine", "black", "beginner");
            page.wait_state("the engine's first move", |s| s["plies"] == 1);
            pages.push(page);
        }
        let rss = |pid: u32| {
            std::fs::read_to_string(format!("/proc/{pid}/status"))
                .ok()
                .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string))
                .unwrap_or_default()
        };
        // The engines are children of the worker threads, not of the main one.
        let tasks = std::fs::read_dir(format!("/proc/{}/task", server.pid())).unwrap();
        let engines: Vec<String> = tasks
            .flatten()
            .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
            .flat_map(|children| {
                children
                    .split_whitespace()
                    .map(|pid| rss(pid.parse().unwrap_or(0)))
                    .collect::<Vec<_>>()
            })
            .collect();
        println!("server with 4 games open (the browser's and 3 more): {}", rss(server.pid()));
        println!("their {} engine processes: {}", engines.len(), engines.join(", "));
        let _ = browser.client.clone().close().await;
    });
}
