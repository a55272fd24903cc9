//! `tabula serve`'s page in a real browser: headless Chromium (Debian's `chromium` and
//! `chromium-driver`) driven through WebDriver, spoken over HTTP with the suite's client.
//! It sets a position, makes a play, checks the shown equity against the API's, and plays
//! a game to its end with a double and a take; screenshots go to the target folder.
//!
//! Without chromium and chromedriver the test says so and passes, unless `TABULA_BROWSER`
//! is set (as `.ci/run` sets it): then their absence is a failure.

use crate::serve_api::{agent, damaged_mat, folder, gnubg_file, post_analyse, Server};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula::gammon::gnubg::xgid;

/// The first of `names` found on the PATH.
fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A chromedriver and one browser session in it, both ended when dropped.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while agent().get(format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1100,1500",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args}
        }}});
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            _profile: profile,
        };
        let answer = browser.send("POST", "/session", Some(capabilities));
        browser.session = answer["sessionId"].as_str().unwrap().to_string();
        browser
    }

    /// One WebDriver command: its `value`.
    fn send(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        match self.try_send(method, path, body) {
            Ok(value) => value,
            Err(text) => panic!("{method} {path}: {text}"),
        }
    }

    /// One WebDriver command: its `value`, or the driver's answer when it fails.
    fn try_send(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let mut response = match method {
            "GET" => agent().get(&url).call(),
            "DELETE" => agent().delete(&url).call(),
            _ => agent()
                .post(&url)
                .header("content-type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
        }
        .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        match status {
            200 => Ok(value["value"].clone()),
            _ => Err(text),
        }
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.send(method, &format!("/session/{}{path}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.session("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs `script` in the page (its `arguments` are `args`): what it returns.
    fn run(&self, script: &str, args: Value) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The element `css` selects, waited for up to 20 s.
    fn find(&self, css: &str) -> String {
        self.until(&format!("{css} to appear"), || {
            let found = self.run(
                "return !!document.querySelector(arguments[0]);",
                json!([css]),
            );
            found.as_bool() == Some(true)
        });
        let e = self.session(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        e.as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Clicks the element `css` selects, found again if the page redrew it meanwhile.
    fn click(&self, css: &str) {
        for _ in 0..50 {
            let e = self.find(css);
            let path = format!("/session/{}/element/{e}/click", self.session);
            match self.try_send("POST", &path, None) {
                Ok(_) => return,
                Err(text) if text.contains("stale element reference") => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(text) => panic!("clicking {css}: {text}"),
            }
        }
        panic!("{css} kept going stale");
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.session("POST", &format!("/element/{e}/clear"), None);
        self.session(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// The text shown by the element `css` selects (read in one step, in the page).
    fn text(&self, css: &str) -> String {
        self.find(css);
        let script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';";
        self.run(script, json!([css]))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// An attribute of the element `css` selects ("" when it has none).
    fn attribute(&self, css: &str, name: &str) -> String {
        self.find(css);
        let script = "const e = document.querySelector(arguments[0]); \
                      return e ? e.getAttribute(arguments[1]) : null;";
        self.run(script, json!([css, name]))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Whether the control `css` selects is disabled.
    fn disabled(&self, css: &str) -> bool {
        self.find(css);
        let script = "return document.querySelector(arguments[0]).disabled === true;";
        self.run(script, json!([css])).as_bool() == Some(true)
    }

    /// The number an element keeps in its `data-value` (as the page received it).
    fn number(&self, css: &str) -> Option<f64> {
        self.attribute(css, "data-value").parse().ok()
    }

    /// Waits up to 20 s for `done`.
    fn until(&self, what: &str, mut done: impl FnMut() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "waited 20 s for {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sets the page's viewport to `width` × `height` CSS pixels (Chrome's device
    /// metrics, as a phone's), and waits for the page to lay itself out again.
    fn viewport(&self, width: u32, height: u32) {
        self.session(
            "POST",
            "/goog/cdp/execute",
            Some(
                json!({"cmd": "Emulation.setDeviceMetricsOverride", "params": {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600
                }}),
            ),
        );
        self.until("the new width", || {
            self.run("return window.innerWidth;", json!([])).as_u64() == Some(u64::from(width))
        });
    }

    /// The elements shown that reach past the window's right or left edge (their tag,
    /// id and class, and how far), and whether the page scrolls sideways.
    fn overflow(&self) -> Vec<String> {
        let script = "const w = document.documentElement.clientWidth; const out = [];
            if (document.documentElement.scrollWidth > w) out.push(`the page is ${document.documentElement.scrollWidth} px wide in ${w}`);
            for (const e of document.querySelectorAll('body *')) {
              const r = e.getBoundingClientRect();
              if (r.width === 0 || r.height === 0) continue;
              if (r.right > w + 0.5 || r.left < -0.5)
                out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute('class') || ''} spans ${r.left.toFixed(1)} to ${r.right.toFixed(1)} in ${w}`);
            }
            return out;";
        self.run(script, json!([]))
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// The table `css` fits its holder, and its last column (the loss) is shown inside
    /// the window.
    fn table_fits(&self, css: &str) {
        let script = "const t = document.querySelector(arguments[0]);
            const w = document.documentElement.clientWidth;
            const holder = t.parentElement.getBoundingClientRect();
            const r = t.getBoundingClientRect();
            const last = t.tBodies[0].rows[0].cells[t.tBodies[0].rows[0].cells.length - 1].getBoundingClientRect();
            return [r.right <= holder.right + 0.5 && t.scrollWidth <= t.clientWidth + 1, last.width > 0 && last.right <= w + 0.5,
                    `table ${r.left}-${r.right}, holder ${holder.left}-${holder.right}, last cell ${last.left}-${last.right}, window ${w}`];";
        let v = self.run(script, json!([css]));
        assert_eq!(v[0], true, "{css} overflows its holder: {}", v[2]);
        assert_eq!(v[1], true, "{css}'s last column is not shown: {}", v[2]);
    }

    /// Sends `path` to the file input `css`, as a person choosing the file.
    fn choose_file(&self, css: &str, path: &Path) {
        let e = self.find(css);
        self.session(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": path.display().to_string() })),
        );
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.session("GET", "/screenshot", None);
        let bytes = decode_base64(png.as_str().unwrap());
        assert_eq!(&bytes[1..4], b"PNG");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = agent()
                .delete(format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64, as WebDriver sends screenshots.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = n.to_be_bytes();
            bytes[1..c.len()].to_vec()
        })
        .collect()
}

/// Two numbers read from JSON, one by the browser and one by serde_json (whose parser
/// may differ from the correctly rounded one in the last bit).
fn same(a: Option<f64>, b: Option<f64>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if (a - b).abs() <= 1e-15 * a.abs().max(1.0))
}

/// The page's way of writing an equity.
fn signed(x: f64) -> String {
    if x >= 0.0 {
        format!("+{x:.6}")
    } else {
        format!("{x:.6}")
    }
}

#[test]
fn a_person_sets_a_position_makes_a_play_and_plays_a_game_with_the_cube_in_a_browser() {
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) else {
        assert!(
            std::env::var_os("TABULA_BROWSER").is_none(),
            "TABULA_BROWSER is set but chromium or chromedriver is missing"
        );
        eprintln!(
            "skipped: the browser test needs chromium and chromedriver \
             (apt-get install chromium chromium-driver); .ci/run installs them"
        );
        return;
    };
    let server = Server::start(folder());
    let browser = Browser::start(&chromium, &chromedriver);
    browser.viewport(1400, 1000);
    browser.open(&format!("{}/#variant=hyper1", server.base));
    browser.until("the page to load", || {
        browser.attribute("body", "data-ready") == "true"
    });
    assert_eq!(browser.text("#fact-position"), "24/24");

    // A position typed in, as a person would.
    browser.type_into("#position-input", "20/11");
    browser.click("#set-position");
    browser.until("the position to be set", || {
        browser.text("#fact-position") == "20/11"
    });
    let api = server.ok("/api/gammon/hyper1/equity?position=20/11");
    browser.until("its equity", || {
        same(browser.number("#equity-value"), api["equity"].as_f64())
    });
    assert_eq!(
        browser.text("#equity-value"),
        signed(api["equity"].as_f64().unwrap())
    );
    assert!(browser
        .text("#cube-action")
        .contains(api["cube"]["action"].as_str().unwrap()));

    // Dice picked, the best play made.
    browser.click("#dice option[value='5-6']");
    let hint = server.ok("/api/gammon/hyper1/hint?position=20/11&roll=5-6");
    let best = hint["moves"][0].clone();
    // Every play listed (here two: the hit first).
    plays_listed(&browser, "#plays", &hint["moves"]);
    assert_eq!(best["play"], "20/14*/9");
    // At 1400 px the plays table fits its column, the loss shown; nothing overflows.
    browser.table_fits("#plays");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    // The picture of docs/serve-board.png (copied from here): the page down to its footer.
    browser.viewport(1400, 800);
    browser.run("document.activeElement.blur();", json!([]));
    browser.screenshot("serve-board.png");
    browser.viewport(1400, 1000);
    // The link's hash follows the board (the dice just picked)…
    browser.until("the hash to follow the dice", || {
        browser
            .run("return location.hash;", json!([]))
            .as_str()
            .is_some_and(|h| h.contains("position=20%2F11") && h.contains("roll=5-6"))
    });
    // The play made on the board: the checker, then where it lands.
    let steps: Vec<&str> = best["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let from = steps[0].split('/').next().unwrap();
    let to = steps[steps.len() - 1]
        .split('/')
        .nth(1)
        .unwrap()
        .trim_end_matches('*');
    browser.click(&format!("#board-holder g[data-point='{from}']"));
    browser.click(&format!("#board-holder g[data-point='{to}']"));
    let mover_after = best["position"].as_str().unwrap();
    let next: Vec<&str> = mover_after.split('/').rev().collect();
    let next = next.join("/");
    browser.until("the position after the play", || {
        browser.text("#fact-position") == next
    });
    let api = server.ok(&format!("/api/gammon/hyper1/equity?position={next}"));
    browser.until("the equity after the play", || {
        same(browser.number("#equity-value"), api["equity"].as_f64())
    });
    assert_eq!(
        browser.text("#equity-value"),
        signed(api["equity"].as_f64().unwrap())
    );

    // …and the board follows the hash, typed in the address bar.
    browser.run(
        "location.hash = '#variant=hyper1&position=bar%2F3&roll=1-2';",
        json!([]),
    );
    browser.until("the board to follow the hash", || {
        browser.text("#fact-position") == "bar/3"
    });
    browser.until("the dice of the hash", || {
        browser.run("return document.getElementById('dice').value;", json!([])) == "1-2"
    });
    // A bad position: the message names the fault, the last good board stays.
    browser.type_into("#position-input", "25/3");
    browser.click("#set-position");
    browser.until("the fault", || !browser.text("#message").is_empty());
    let message = browser.text("#message");
    assert!(
        message.starts_with("Not a position of hyper1: "),
        "{message}"
    );
    assert!(message.contains("still shows bar/3"), "{message}");
    assert_eq!(browser.attribute("#position-input", "aria-invalid"), "true");
    assert_eq!(browser.text("#fact-position"), "bar/3");
    assert_eq!(
        browser.attribute("#board-holder svg", "aria-label"),
        "board: bar/3"
    );
    browser.screenshot("serve-bad-position.png");

    // On a phone's width: nothing wider than the window, the point numbers readable, the
    // loss still shown.
    browser.viewport(390, 844);
    browser.type_into("#position-input", "20/11");
    browser.click("#set-position");
    browser.click("#dice option[value='5-6']");
    browser.until("the plays", || {
        browser.attribute("#plays tbody tr", "data-play") == best["play"].as_str().unwrap()
    });
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.table_fits("#plays");
    let number = browser.run(
        "return document.querySelector('#board-holder .point-number').getBoundingClientRect().height;",
        json!([]),
    );
    assert!(
        number.as_f64().unwrap() >= 10.0,
        "the point numbers are {number} px high"
    );
    browser.screenshot("serve-board-390.png");

    at_a_score(&browser, &server);
    bear_off(&browser, &server);
    review_a_file(&browser, &server);
    browser.viewport(1400, 1000);
    play_a_game(&browser, &server, None);
    // A game of a match to 7 at 2-2: the person doubles at once, at that score (tabula
    // takes: at 5-away 5-away the Hypergammon-1 opening is a double and a take).
    play_a_game(&browser, &server, Some((7, 2, 2)));
    // A game after the Crawford game, the person at match point: the person's double at
    // once (worthless to the leader, taken), the game played out and reviewed as one after
    // the Crawford game (a lone game of a .mat there would be read as the Crawford game).
    play_a_game(&browser, &server, Some((7, 6, 5)));
    play_from_a_cube(&browser, &server);
    bingo_chart(&browser, &server);
    // Every tab on a phone's width: nothing wider than the window.
    browser.viewport(390, 844);
    for tab in ["board", "game", "review", "bearoff", "bingo"] {
        browser.click(&format!("button[data-tab='{tab}']"));
        assert_eq!(browser.overflow(), Vec::<String>::new(), "the {tab} tab");
    }
    browser.click("button[data-tab='game']");
    browser.screenshot("serve-game-390.png");
}

/// The Board tab at a match score (on a phone's width): the match-winning chance and the
/// cube action the API gives at that score, the plays ranked by it, the score in the link.
fn at_a_score(browser: &Browser, server: &Server) {
    browser.click("#score-mode option[value='match']");
    browser.type_into("#score-a", "3");
    browser.type_into("#score-b", "2");
    let api = server.ok("/api/gammon/hyper1/equity?position=20/11&score=3-2");
    browser.until("the match-winning chance", || {
        same(browser.number("#mwc-value"), api["mwc"].as_f64())
    });
    assert_eq!(
        browser.attribute("#cube-action", "data-action"),
        api["cube_action"]["action"].as_str().unwrap()
    );
    let hint = server.ok("/api/gammon/hyper1/hint?position=20/11&roll=5-6&score=3-2");
    browser.until("the plays at the score", || {
        same(
            browser.number("#plays tbody tr .play-equity"),
            hint["moves"][0]["mwc"].as_f64(),
        )
    });
    browser.table_fits("#plays");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    let hash = browser.run("return location.hash;", json!([]));
    assert!(hash.as_str().unwrap().contains("score=3-2"), "{hash}");
    browser.screenshot("serve-score-390.png");
    browser.click("#score-mode option[value='']");
}

/// A bear-off position of the 6x6 two-sided table (on a phone's width): its cube action
/// and the plays of a roll as the API gives them; the best play made.
fn bear_off(browser: &Browser, server: &Server) {
    browser.click("button[data-tab='bearoff']");
    browser.until("the bear-off board", || {
        browser.text("#bearoff-position") == "6,5,4,3,2,1/6,5,4,3,2,1"
    });
    browser.type_into("#bearoff-input", "6,5,3/4,2");
    browser.click("#bearoff-set");
    browser.until("the position", || {
        browser.text("#bearoff-position") == "6,5,3/4,2"
    });
    let table = "/api/bearoff/bearoff-ts-6x6";
    bear_equity_shown(browser, server, table, "6,5,3/4,2", "centred");
    browser.click("#bearoff-dice option[value='2-6']");
    let hint = server.ok(&format!(
        "{table}/hint?position=6,5,3/4,2&roll=6-2&cube=centred"
    ));
    let best = &hint["plays"][0];
    plays_listed(browser, "#bearoff-plays-table", &hint["plays"]);
    browser.table_fits("#bearoff-plays-table");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-bearoff-390.png");
    browser.click("#bearoff-plays-table tbody tr");
    let after: Vec<&str> = best["position"]
        .as_str()
        .unwrap()
        .split('/')
        .rev()
        .collect();
    let after = after.join("/");
    browser.until("the position after the play", || {
        browser.text("#bearoff-position") == after
    });
    bear_off_hash(browser, server, &after);
    race(browser, server);
    bear_off_at_a_score(browser, server);
}

/// A bear-off XGID of a match typed in: the match-winning chance and cube action at its
/// score as the API gives them, the plays of a roll by their match-winning chances, and the
/// best play made, the score and the cube then seen by the other side.
fn bear_off_at_a_score(browser: &Browser, server: &Server) {
    if crate::gammon_xgid::gnubg().is_none() {
        return; // The server's match-equity table is gnubg's.
    }
    browser.click("#bearoff-table option[value='bearoff-ts-6x6']");
    let x = "XGID=-ADA---------------aa-aa--:1:1:1:00:19:19:0:25:10";
    browser.type_into("#bearoff-input", x);
    browser.click("#bearoff-set");
    let position = "3,2,2,2,2,1/6,5,3,2";
    browser.until("the position at 6-6", || {
        browser.text("#bearoff-position") == position
    });
    let table = "/api/bearoff/bearoff-ts-6x6";
    let e = server.ok(&format!(
        "{table}/equity?position={}",
        crate::serve_api::enc(x)
    ));
    browser.until("its match-winning chance", || {
        same(browser.number("#bearoff-mwc-value"), e["mwc"].as_f64())
    });
    assert_eq!(
        browser.attribute("#bearoff-cube-action", "data-action"),
        e["cube_action"]["action"].as_str().unwrap()
    );
    assert!(browser.text("#bearoff-method").contains("at 6-6"));
    browser.click("#bearoff-dice option[value='1-1']");
    let h = server.ok(&format!(
        "{table}/hint?position={position}&roll=1-1&score=6-6&cube=2&owner=on-roll"
    ));
    let best = &h["moves"][0];
    browser.until("the plays at the score", || {
        browser.attribute("#bearoff-plays-table tbody tr", "data-play")
            == best["play"].as_str().unwrap()
    });
    assert!(same(
        browser.number("#bearoff-plays-table tbody tr .play-equity"),
        best["mwc"].as_f64()
    ));
    browser.table_fits("#bearoff-plays-table");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-bearoff-score-390.png");
    let link = browser.run(
        "return document.getElementById('bearoff-link').href;",
        json!([]),
    );
    assert!(link.as_str().unwrap().contains("XGID"), "{link}");
    // The best play made: the opponent on roll, owning nothing (the cube is the mover's).
    browser.click("#bearoff-plays-table tbody tr");
    browser.until("the position after the play", || {
        browser.text("#bearoff-position") == "6,5,3,2/3,2,2,1"
    });
    let e = server.ok(&format!(
        "{table}/equity?position=6,5,3,2/3,2,2,1&score=6-6&cube=2&owner=opponent"
    ));
    browser.until("its match-winning chance", || {
        same(browser.number("#bearoff-mwc-value"), e["mwc"].as_f64())
    });
    assert_eq!(browser.attribute("#bearoff-cube-action", "data-action"), "");
    // A money position typed again: money play.
    browser.type_into("#bearoff-input", "6,5,3/4,2");
    browser.click("#bearoff-set");
    browser.until("money play again", || {
        browser.text("#bearoff-position") == "6,5,3/4,2"
            && browser.number("#bearoff-equity-value").is_some()
    });
}

/// The plays table `css` lists `plays` (the API's, best first): a row each, the best
/// first with its equity.
fn plays_listed(browser: &Browser, css: &str, plays: &Value) {
    let best = &plays[0];
    let rows = format!("{css} tbody tr");
    browser.until("the plays", || {
        browser.attribute(&rows, "data-play") == best["play"].as_str().unwrap()
    });
    assert!(same(
        browser.number(&format!("{rows} .play-equity")),
        best["equity"].as_f64()
    ));
    let count = browser.run(
        "return document.querySelectorAll(arguments[0]).length;",
        json!([rows]),
    );
    assert_eq!(count.as_u64(), Some(plays.as_array().unwrap().len() as u64));
}

/// The Bear-off tab shows the equity and the cube action (none: no access) that `api`
/// (`/api/bearoff/TABLE`) gives for `position` with the cube state `cube`.
fn bear_equity_shown(browser: &Browser, server: &Server, api: &str, position: &str, cube: &str) {
    let equity = server.ok(&format!("{api}/equity?position={position}&cube={cube}"));
    browser.until("its equity", || {
        same(
            browser.number("#bearoff-equity-value"),
            equity["equity"].as_f64(),
        )
    });
    assert_eq!(
        browser.attribute("#bearoff-cube-action", "data-action"),
        equity["cube"]["action"].as_str().unwrap_or_default()
    );
}

/// The location's hash, decoded: its parameters in order.
fn hash_params(browser: &Browser) -> Vec<(String, String)> {
    let script = "return [...new URLSearchParams(location.hash.slice(1))];";
    browser
        .run(script, json!([]))
        .as_array()
        .unwrap()
        .iter()
        .map(|kv| {
            let text = |i: usize| kv[i].as_str().unwrap().to_string();
            (text(0), text(1))
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The bear-off board and the link's hash, both ways: the board (`shown`, the 6x6 table's,
/// no dice, the cube centred) is written into the hash, and so are the dice and the cube
/// state as they change; the Board tab writes its own, the Bear-off tab its own again. A
/// hash typed in the address bar, while the Board tab is shown, opens the Bear-off tab on
/// its table, position, dice and cube state, with the API's equity and plays for them; a
/// hash with a position no table holds is named and the last good board stays; and a link
/// to a bear-off position opens a new page on it.
fn bear_off_hash(browser: &Browser, server: &Server, shown: &str) {
    let table = "bearoff-ts-6x6";
    let written = |list: &[(&str, &str)]| {
        let wanted = pairs(list);
        browser.until(&format!("the hash {wanted:?}"), || {
            hash_params(browser) == wanted
        });
    };
    written(&[("bearoff", table), ("position", shown)]);
    browser.click("#bearoff-dice option[value='1-3']");
    written(&[("bearoff", table), ("position", shown), ("roll", "1-3")]);
    let owned = [
        ("bearoff", table),
        ("position", shown),
        ("roll", "1-3"),
        ("cube", "owned"),
    ];
    browser.click("#bearoff-cube option[value='owned']");
    written(&owned);
    browser.click("button[data-tab='board']");
    browser.until("the Board's hash", || {
        hash_params(browser).first() == Some(&("variant".to_string(), "hyper1".to_string()))
    });
    browser.click("button[data-tab='bearoff']");
    written(&owned);

    // The hash typed in while the Board tab is shown: the Bear-off tab follows it.
    browser.click("button[data-tab='board']");
    let typed = "5,4/6,1";
    browser.run(
        "location.hash = arguments[0];",
        json!([format!(
            "#bearoff={table}&position=5%2C4%2F6%2C1&roll=5-2&cube=opponent"
        )]),
    );
    browser.until("the Bear-off tab on the hash's position", || {
        browser.text("#bearoff-position") == typed
    });
    assert_eq!(
        browser.attribute("button[data-tab='bearoff']", "aria-pressed"),
        "true"
    );
    let value = |id: &str| {
        browser.run(
            "return document.getElementById(arguments[0]).value;",
            json!([id]),
        )
    };
    assert_eq!(value("bearoff-dice"), "2-5");
    assert_eq!(value("bearoff-cube"), "opponent");
    let api = format!("/api/bearoff/{table}");
    bear_equity_shown(browser, server, &api, typed, "opponent");
    let hint = server.ok(&format!(
        "{api}/hint?position={typed}&roll=5-2&cube=opponent"
    ));
    browser.until("the plays of 5-2 for the opponent's cube", || {
        same(
            browser.number("#bearoff-plays-table tbody tr .play-equity"),
            hint["plays"][0]["equity"].as_f64(),
        )
    });
    written(&[
        ("bearoff", table),
        ("position", typed),
        ("roll", "2-5"),
        ("cube", "opponent"),
    ]);

    // A position of no table: named, and the last good board stays.
    browser.run(
        "location.hash = arguments[0];",
        json!([format!("#bearoff={table}&position=7%2C1%2F2")]),
    );
    browser.until("the fault", || {
        browser
            .text("#bearoff-status")
            .starts_with("Not a position of ")
    });
    assert!(browser
        .text("#bearoff-status")
        .contains(&format!("still shows {typed}")));
    assert_eq!(browser.text("#bearoff-position"), typed);
    assert_eq!(
        browser.attribute("#bearoff-board svg", "aria-label"),
        format!("bear-off board: {typed}")
    );
    assert_eq!(browser.attribute("#bearoff-input", "aria-invalid"), "true");

    // A link followed: a new page, opened on the Bear-off tab at that position.
    let link = browser.run(
        "return document.getElementById('bearoff-link').href;",
        json!([]),
    );
    let link = link.as_str().unwrap();
    assert!(
        link.ends_with(&format!(
            "#bearoff={table}&position=5%2C4%2F6%2C1&roll=2-5&cube=opponent"
        )),
        "{link}"
    );
    browser.open("about:blank");
    browser.open(link);
    browser.until("the page to load", || {
        browser.attribute("body", "data-ready") == "true"
    });
    browser.until("the linked position", || {
        browser.text("#bearoff-position") == typed
    });
    assert_eq!(
        browser.attribute("button[data-tab='bearoff']", "aria-pressed"),
        "true"
    );
    assert_eq!(value("bearoff-dice"), "2-5");
    assert_eq!(value("bearoff-cube"), "opponent");
    browser.until("the linked position's plays", || {
        same(
            browser.number("#bearoff-plays-table tbody tr .play-equity"),
            hint["plays"][0]["equity"].as_f64(),
        )
    });
    assert_eq!(browser.text("#fact-position"), "24/24");
    browser.click("#bearoff-cube option[value='centred']");
    written(&[("bearoff", table), ("position", typed), ("roll", "2-5")]);
}

/// A race of fifteen checkers a side, typed in while the 6x6 table is chosen: asked as any
/// race (`/api/bearoff/race/…`), and with no 6x15 table in the folder answered by the
/// one-sided estimate, marked as one; its plays ranked by it, the best one made. Looked at
/// on a phone's width and a wide one.
fn race(browser: &Browser, server: &Server) {
    let fifteen = "6,6,6,5,5,5,4,4,4,3,3,2,2,1,1/6,6,6,5,5,5,4,4,4,3,3,2,2,1,1";
    browser.type_into("#bearoff-input", fifteen);
    browser.click("#bearoff-set");
    browser.until("the race", || browser.text("#bearoff-position") == fifteen);
    let equity = server.ok(&format!(
        "/api/bearoff/race/equity?position={fifteen}&cube=centred"
    ));
    assert_eq!(equity["method"], "one-sided estimate");
    browser.until("its estimate", || {
        same(
            browser.number("#bearoff-equity-value"),
            equity["equity"].as_f64(),
        )
    });
    assert_eq!(
        browser.run(
            "return document.getElementById('bearoff-table').value;",
            json!([])
        ),
        "race"
    );
    assert!(browser
        .text("#bearoff-status")
        .contains("asked as any race"));
    assert!(browser.text("#bearoff-method").contains("not exact"));
    assert!(browser
        .text("#bearoff-estimate-label")
        .starts_with("Estimate, not exact"));
    browser.click("#bearoff-dice option[value='5-6']");
    let hint = server.ok(&format!(
        "/api/bearoff/race/hint?position={fifteen}&roll=6-5"
    ));
    assert_eq!(hint["method"], "one-sided estimate");
    let best = &hint["plays"][0];
    browser.until("the plays by the estimate", || {
        browser.attribute("#bearoff-plays-table tbody tr", "data-play")
            == best["after"].as_str().unwrap()
    });
    assert!(same(
        browser.number("#bearoff-plays-table tbody tr .play-equity"),
        best["equity"].as_f64()
    ));
    assert!(browser
        .text("#bearoff-plays-table caption")
        .contains("estimate"));
    browser.table_fits("#bearoff-plays-table");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-bearoff-race-390.png");
    browser.viewport(1400, 1000);
    browser.table_fits("#bearoff-plays-table");
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-bearoff-race.png");
    browser.viewport(390, 844);
    browser.click("#bearoff-plays-table tbody tr");
    let after: Vec<&str> = best["after"].as_str().unwrap().split('/').rev().collect();
    let after = after.join("/");
    browser.until("the race after the play", || {
        browser.text("#bearoff-position") == after
    });
}

/// gnubg's 7-point match of Hypergammon-1 chosen as a file and reviewed (on a phone's
/// width, then a wide one): the decisions listed are the API's, stepped through on the
/// board; then a damaged file pasted, its fault listed.
fn review_a_file(browser: &Browser, server: &Server) {
    browser.click("button[data-tab='review']");
    let file = gnubg_file("hyper1-match7.sgf");
    let (status, doc) = post_analyse(server, &std::fs::read(&file).unwrap());
    assert_eq!(status, 200, "{doc}");
    let mut steps = Vec::new();
    for g in doc["games"].as_array().unwrap() {
        for s in g["steps"].as_array().unwrap() {
            let p = s["player"].as_u64().unwrap() as usize;
            let d = &g["reviews"][p]["decisions"][s["decision"].as_u64().unwrap() as usize];
            steps.push((s.clone(), d.clone()));
        }
    }
    browser.choose_file("#review-file", &file);
    browser.until("the review", || {
        browser.attribute("#review-status", "data-state") == "ok"
    });
    let listed = browser.run(
        "return document.querySelectorAll('#review-list li').length;",
        json!([]),
    );
    assert_eq!(listed.as_u64(), Some(steps.len() as u64));
    let totals = browser.text("#review-totals-table");
    for t in doc["totals"].as_array().unwrap() {
        assert!(totals.contains(t["name"].as_str().unwrap()), "{totals}");
        let lost = format!("{:.4}", t["normalised"].as_f64().unwrap());
        assert!(totals.contains(&lost), "{lost} in {totals}");
    }
    // Stepped through: each decision's position on the board, its XGID and loss below.
    for (i, (step, d)) in steps.iter().enumerate().take(6) {
        if i > 0 {
            browser.click("#review-next");
        }
        let label = format!("review: {}", d["position"].as_str().unwrap());
        browser.until("the step's board", || {
            browser.text("#review-where") == format!("{} / {}", i + 1, steps.len())
        });
        assert_eq!(browser.attribute("#review-board svg", "aria-label"), label);
        assert!(browser
            .text("#review-xgid")
            .starts_with(step["xgid"].as_str().unwrap()));
        assert_eq!(
            browser
                .attribute("#review-step", "data-loss")
                .parse::<f64>()
                .ok(),
            d["loss"].as_f64()
        );
        assert!(browser
            .text("#review-step")
            .contains(d["chosen"].as_str().unwrap()));
    }
    // The Crawford game (game 7, at 6-3) and the game after it (game 8, at 6-5), each
    // decision shown with its score and, for the Crawford game alone, marked so.
    for (game, crawford) in [(7, true), (8, false)] {
        let (i, (step, d)) = steps
            .iter()
            .enumerate()
            .find(|(_, (s, _))| {
                doc["games"][game - 1]["steps"]
                    .as_array()
                    .unwrap()
                    .contains(s)
            })
            .unwrap_or_else(|| panic!("gnubg's match has a decision in game {game}"));
        assert_eq!(doc["games"][game - 1]["crawford"], crawford);
        browser.click(&format!("#review-list li[data-step='{i}']"));
        browser.until("the step's board", || {
            browser.text("#review-where") == format!("{} / {}", i + 1, steps.len())
        });
        let label = format!("review: {}", d["position"].as_str().unwrap());
        assert_eq!(browser.attribute("#review-board svg", "aria-label"), label);
        let shown = browser.text("#review-xgid");
        assert!(shown.starts_with(step["xgid"].as_str().unwrap()), "{shown}");
        assert!(shown.contains("in a match to 7"), "{shown}");
        assert_eq!(shown.contains("(Crawford)"), crawford, "{shown}");
        assert!(browser
            .text("#review-step")
            .starts_with(&format!("game {game}, line ")));
    }
    // Only the decisions that lost: Next goes to the first of them.
    let lost = steps
        .iter()
        .position(|(_, d)| d["loss"].as_f64().unwrap() > 0.0)
        .expect("gnubg's match has a decision that lost");
    browser.click("#review-list li:first-child");
    browser.click("#review-errors");
    if lost > 0 {
        browser.click("#review-next");
    }
    browser.until("the first loss", || {
        browser.text("#review-where") == format!("{} / {}", lost + 1, steps.len())
    });
    let d = &steps[lost].1;
    let shown = browser.text("#review-step");
    assert!(shown.contains(d["best"].as_str().unwrap()), "{shown}");
    assert!(
        shown.contains(&format!("{:.4}%", 100.0 * d["loss"].as_f64().unwrap())),
        "{shown}"
    );
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-review-390.png");
    browser.viewport(1400, 1000);
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-review.png");
    browser.click("#review-errors");

    // A damaged file pasted: its fault listed with its line, the rest reviewed.
    let (damaged, line) = damaged_mat();
    browser.run(
        "document.getElementById('review-file').value = ''; \
         document.getElementById('review-text').value = arguments[0];",
        json!([damaged]),
    );
    browser.click("#review-go");
    browser.until("the faults", || {
        browser.attribute("#review-status", "data-state") == "faults"
    });
    let faults = browser.text("#review-faults");
    assert!(
        faults.contains(&format!("line {line}: game 2: ")),
        "{faults}"
    );
    assert!(browser.text("#review-status").contains("1 fault"));

    // A backgammon match pasted: its bear-offs, judged by the folder's two-sided table,
    // stepped through on backgammon's board.
    if crate::gammon_xgid::gnubg().is_none() {
        return; // The match's scores are valued by gnubg's match-equity table.
    }
    let text = std::fs::read_to_string(gnubg_file("backgammon-match25.mat")).unwrap();
    let (status, doc) = post_analyse(server, text.as_bytes());
    assert_eq!(status, 200, "{doc}");
    browser.run(
        "document.getElementById('review-file').value = ''; \
         document.getElementById('review-text').value = arguments[0];",
        json!([text]),
    );
    browser.click("#review-go");
    browser.until("the bear-offs reviewed", || {
        browser
            .text("#review-status")
            .contains("judged exactly by bearoff 6x6")
    });
    let status = browser.text("#review-status");
    assert!(status.contains("19 decision(s) reviewed"), "{status}");
    assert!(status.contains("Kazaross"), "{status}");
    // The first decision reviewed: the first game's with a judged decision.
    let game = doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| !g["steps"].as_array().unwrap().is_empty())
        .unwrap();
    let step = &game["steps"][0];
    let first = &game["reviews"][step["player"].as_u64().unwrap() as usize]["decisions"]
        [step["decision"].as_u64().unwrap() as usize];
    assert_eq!(
        browser.attribute("#review-board svg", "aria-label"),
        format!("review: {}", first["position"].as_str().unwrap())
    );
    assert_eq!(browser.overflow(), Vec::<String>::new());
    browser.screenshot("serve-review-backgammon.png");
}

/// Bingo's law of T for the 3×3 card, drawn: one bar per call with a chance, and the mean
/// the API gives.
fn bingo_chart(browser: &Browser, server: &Server) {
    browser.click("button[data-tab='bingo']");
    browser.click("#bingo-size option[value='3']");
    browser.click("#bingo-go");
    let law = server.ok("/api/bingo/law?size=3&pattern=line");
    let mean = format!("{:.4}", law["mean"].as_f64().unwrap());
    browser.until("the chart", || {
        browser.text("#bingo-summary").contains(&mean)
    });
    let bars = browser.run(
        "return document.querySelectorAll('#bingo-chart svg rect').length;",
        json!([]),
    );
    let live = law["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["p"].as_f64().unwrap() > 0.0 || r["cdf"].as_f64().unwrap() < 1.0)
        .count();
    assert_eq!(bars.as_u64(), Some(live as u64));
    browser.screenshot("serve-bingo.png");
}

/// A game against tabula with the cube, in money play or a game of a match (its length
/// and each side's points, the person's first): the person doubles at once (tabula takes
/// or passes as the API's cube action says: in money play the Hypergammon-1 opening is a
/// double and a take), undoes one roll, asks a hint, takes any double of tabula's, and
/// always makes the first play listed; then the game is reviewed.
fn play_a_game(browser: &Browser, server: &Server, at: Option<(u32, u32, u32)>) {
    browser.click("button[data-tab='game']");
    browser.type_into("#game-seed", "7");
    let (length, you, them) = at.unwrap_or((0, 0, 0));
    browser.type_into("#game-length", &length.to_string());
    browser.type_into("#game-you", &you.to_string());
    browser.type_into("#game-them", &them.to_string());
    let takes = match at {
        None => true,
        Some(_) => {
            let path = format!(
                "/api/gammon/hyper1/equity?position=24/24&score={}-{}",
                length - you,
                length - them
            );
            let c = &server.ok(&path)["cube_action"];
            c["double_take"].as_f64() <= c["double_pass"].as_f64()
        }
    };
    browser.click("#game-new");
    let mut doubled = false;
    let mut undone = false;
    let mut hinted = false;
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game did not end"
        );
        let phase = browser.attribute("#game-status", "data-phase");
        match phase.as_str() {
            "decide" if !doubled => {
                browser.click("#game-double");
                doubled = true;
                browser.until("tabula's answer", || {
                    let log = browser.text("#game-log");
                    log.contains("tabula takes") || log.contains("tabula passes")
                });
            }
            "decide" => browser.click("#game-roll"),
            "move" if !undone => {
                let log = browser.text("#game-log");
                browser.click("#game-undo");
                browser.until("the roll undone", || {
                    browser.attribute("#game-status", "data-phase") == "decide"
                });
                assert!(browser.text("#game-status").starts_with("Your turn"));
                assert!(browser.text("#game-log").starts_with(&log));
                assert!(browser.text("#game-log").ends_with("(undone)"));
                undone = true;
            }
            "move" if !hinted => {
                // The hint: the plays ranked with their equities, the best marked.
                browser.click("#game-hint");
                browser.until("the hint", || {
                    browser.text("#game-advice").starts_with("Hint: ")
                });
                let best = browser.attribute("#game-plays tr.best", "data-play");
                assert!(
                    browser.text("#game-advice").contains(&best),
                    "{}",
                    browser.text("#game-advice")
                );
                browser.find("#game-plays .play-equity");
                hinted = true;
            }
            "move" => browser.click("#game-plays table tbody tr"),
            "offer" => browser.click("#game-take"),
            "over" => break,
            _ => std::thread::sleep(Duration::from_millis(30)),
        }
    }
    let status = browser.text("#game-status");
    assert!(status.starts_with("Game over: "), "{status}");
    let log = browser.text("#game-log");
    match takes {
        true => assert!(log.contains("You double to 2; tabula takes."), "{log}"),
        false => assert!(log.contains("You double; tabula passes."), "{log}"),
    }
    // The points are the cube's value times 1, 2 or 3.
    assert!(status.contains(" point"), "{status}");
    if at.is_some() {
        assert!(
            status.contains("The score is now")
                || status.contains(&format!("the match to {length}")),
            "{status}"
        );
    }
    // The screenshots' names: `serve-game` in money play, `serve-match-5-6` at 5-6.
    let name = match at {
        Some(_) => format!("serve-match-{you}-{them}"),
        None => "serve-game".to_string(),
    };
    let shot = browser.screenshot(&format!("{name}.png"));
    // The review after the game: the game written as a match file, reviewed by the server
    // as any file is, with no fault.
    assert!(
        !browser.disabled("#game-review"),
        "{}",
        browser.text("#game-advice")
    );
    open_review(browser);
    let names = browser.text("#review-totals-table");
    assert!(names.contains("you") && names.contains("tabula"), "{names}");
    browser.screenshot(&format!("{name}-review.png"));
    if at.is_some() {
        let review = browser.text("#review-status");
        assert!(review.contains(&format!("a match to {length}")), "{review}");
    }
    // The file the page wrote is reviewed as the command line reviews it: the same
    // document, its game the Crawford game or not as the score and the rule say.
    let (text, doc) = reviewed_file(browser, server);
    assert_eq!(doc["games"][0]["score"], json!([you, them]), "{text}");
    assert_eq!(doc["games"][0]["crawford"], false, "{text}");
    let steps = browser.run(
        "return document.querySelectorAll('#review-list li').length;",
        json!([]),
    );
    let reviewed: usize = doc["games"][0]["steps"].as_array().unwrap().len();
    assert_eq!(steps.as_u64(), Some(reviewed as u64));
    let first = &doc["games"][0]["reviews"][0]["decisions"][0];
    assert_eq!(
        first["kind"], "cube",
        "the person's double at once: {first}"
    );
    eprintln!("screenshots in {}", shot.parent().unwrap().display());
}

/// The Play tab's finished game sent to the Review tab: reviewed by the server with no
/// fault.
fn open_review(browser: &Browser) {
    browser.click("#game-review");
    browser.until("the game's review", || {
        !browser.attribute("#review-status", "data-state").is_empty()
    });
    assert_eq!(
        browser.attribute("#review-status", "data-state"),
        "ok",
        "{}\n{}",
        browser.text("#review-status"),
        browser.text("#review-faults")
    );
}

/// The match file the page wrote for its review, and the document the command line
/// gives for it, which the server gives too.
fn reviewed_file(browser: &Browser, server: &Server) -> (String, Value) {
    let text = browser.run(
        "return document.getElementById('review-text').value;",
        json!([]),
    );
    let text = text.as_str().unwrap().to_string();
    let file = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    std::fs::write(file.path(), &text).unwrap();
    let (doc, code, said) = crate::gammon_analyse::analyse_in(folder(), file.path());
    assert_eq!(code, 0, "{said}\n{text}");
    let (status, posted) = post_analyse(server, text.as_bytes());
    assert_eq!((status, &posted), (200, &doc));
    (text, doc)
}

/// The page's way of writing a match-winning chance.
fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// The cube drawn on the board `holder` shows: its label (`cube 2, yours`).
fn cube_shown(browser: &Browser, holder: &str) -> String {
    browser.attribute(
        &format!("{holder} svg g[aria-label^='cube ']"),
        "aria-label",
    )
}

/// Games started from a cube already turned. A game of a match to 7 at 3-2 (the person
/// first) from a cube of 2 the person owns: the board shows that cube, the hint before
/// the roll is the API's cube action at 4-away 5-away with that cube (not the centred
/// cube's), the person's double turns it to 4 and tabula takes or passes as that answer
/// says; the game goes on to its end, its points a multiple of the last cube. Then a money
/// game from a cube of 2 that tabula owns: the person may not double.
fn play_from_a_cube(browser: &Browser, server: &Server) {
    browser.click("button[data-tab='game']");
    browser.type_into("#game-seed", "11");
    browser.type_into("#game-length", "7");
    browser.type_into("#game-you", "3");
    browser.type_into("#game-them", "2");
    browser.click("#game-cube-value option[value='2']");
    browser.click("#game-cube-owner option[value='human']");
    browser.click("#game-new");
    browser.until("the person's turn", || {
        browser.attribute("#game-status", "data-phase") == "decide"
    });
    assert_eq!(cube_shown(browser, "#game-board"), "cube 2, yours");
    let status = browser.text("#game-status");
    assert!(status.contains("The cube is at 2, yours."), "{status}");
    let asked = |query: &str| {
        server.ok(&format!(
            "/api/gammon/hyper1/equity?position=24/24&score=4-5{query}"
        ))["cube_action"]
            .clone()
    };
    let c = asked("&cube=2&owner=on-roll");
    let centred = asked("");
    assert_ne!(c, centred, "the cube of 2 changes the answer");
    browser.click("#game-hint");
    browser.until("the hint", || {
        browser.text("#game-advice").starts_with("Hint: ")
    });
    let chance = |c: &Value, k: &str| percent(c[k].as_f64().unwrap());
    assert_eq!(
        browser.text("#game-advice"),
        format!(
            "Hint: {} (no double {}, double/take {}, double/pass {}).",
            c["action"].as_str().unwrap(),
            chance(&c, "no_double"),
            chance(&c, "double_take"),
            chance(&c, "double_pass")
        )
    );
    browser.click("#game-double");
    let takes = c["double_take"].as_f64() <= c["double_pass"].as_f64();
    let said = if takes {
        "You double to 4; tabula takes."
    } else {
        "You double; tabula passes."
    };
    browser.until("tabula's answer", || {
        browser.text("#game-log").contains(said)
    });
    if takes {
        assert_eq!(cube_shown(browser, "#game-board"), "cube 4, theirs");
    }
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game did not end"
        );
        match browser.attribute("#game-status", "data-phase").as_str() {
            "decide" => browser.click("#game-roll"),
            "move" => browser.click("#game-plays table tbody tr"),
            "offer" => browser.click("#game-take"),
            "over" => break,
            _ => std::thread::sleep(Duration::from_millis(30)),
        }
    }
    let status = browser.text("#game-status");
    let cube = browser
        .run("return game.cube.value;", json!([]))
        .as_u64()
        .unwrap();
    let words: Vec<&str> = status.split_whitespace().collect();
    let points: u64 = words
        .iter()
        .position(|w| *w == "win" || *w == "wins")
        .and_then(|i| words.get(i + 1)?.parse().ok())
        .unwrap_or_else(|| panic!("no points in {status}"));
    match takes {
        true => assert!(
            cube >= 4 && points.is_multiple_of(cube) && (1..=3).contains(&(points / cube)),
            "{points} points with the cube at {cube}: {status}"
        ),
        false => assert_eq!((cube, points), (2, 2), "{status}"),
    }
    browser.screenshot("serve-cube-game.png");
    // The review after the game replays it from that cube: the file the page writes sets
    // it before the first action as gnubg does (`CV`, `CP`), and the command line reads
    // the same document from it.
    assert!(!browser.disabled("#game-review"));
    open_review(browser);
    let (text, doc) = reviewed_file(browser, server);
    assert!(text.contains("\n;CV[2]\n;CP[w]\n"), "{text}");
    let game = &doc["games"][0];
    assert_eq!(game["complete"], true, "{doc}");
    let first = xgid::parse(game["steps"][0]["xgid"].as_str().unwrap()).unwrap();
    assert_eq!(
        (first.cube, first.owner),
        (2, xgid::XgOwner::OnRoll),
        "{doc}"
    );
    let won = game["reviews"][0]["human_points"].as_i64().unwrap();
    assert_eq!(won.unsigned_abs(), points, "{status}");
    assert_eq!(game["reviews"][0]["cube"], json!(cube), "{doc}");
    browser.screenshot("serve-cube-game-review.png");
    browser.click("button[data-tab='game']");

    // Money play from a cube of 2 that tabula owns: the person has no access to it.
    browser.type_into("#game-length", "0");
    browser.type_into("#game-you", "0");
    browser.type_into("#game-them", "0");
    browser.click("#game-cube-owner option[value='tabula']");
    browser.click("#game-new");
    browser.until("the person's turn", || {
        browser.attribute("#game-status", "data-phase") == "decide"
    });
    assert_eq!(cube_shown(browser, "#game-board"), "cube 2, theirs");
    assert!(browser.disabled("#game-double"));
    assert!(!browser.disabled("#game-roll"));
    browser.click("#game-hint");
    browser.until("the hint", || {
        browser.text("#game-advice") == "Hint: the cube is tabula’s: roll."
    });
    browser.click("#game-cube-value option[value='1']");
}
