//! End to end: the explorer page in Debian's Chromium, headless, driven
//! through chromedriver (WebDriver) as a person would use it: clicks on the
//! board, buttons, the size and rule controls, the keyboard; what is
//! checked is what the page shows (its text and the drawn board).
//!
//! Needs `chromium` and `chromedriver` (scripts/install-browser.sh). Without
//! them the test says so and skips, except under CI (`CI=true`), where it
//! fails: CI must install them. Screenshots go to
//! `target/tmp/browser-shots/`.

use std::net::TcpListener as StdListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use lightsout::serve::{Limits, router};
use serde_json::{Value, json};

/// The flags every Chromium run of this project uses: no sandbox (CI runs
/// as root), no GPU, and nothing that reaches out to the network.
const CHROMIUM_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // No crash reporter processes outliving the browser.
    "--disable-breakpad",
];

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|p| p.is_file()))
}

/// Chromium and chromedriver, or `None` (after saying why) when a local
/// run may skip. Under CI their absence is a failure.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let found = on_path("chromium").zip(on_path("chromedriver"));
    if found.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !ci,
            "CI=true but chromium or chromedriver is missing: .ci/run must run scripts/install-browser.sh"
        );
        // Written to the stream itself, past the test harness's capture, so
        // that a skip is seen.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "browser tests SKIPPED: chromium and chromedriver not found (run scripts/install-browser.sh)"
        );
    }
    found
}

/// chromedriver, in a process group of its own with the browser it starts,
/// all killed when the test ends, however it ends (a failed assertion must
/// not leave a browser running), and the browser's fresh profile removed.
struct Driver {
    process: Child,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.process.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.process.kill();
        let _ = self.process.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts chromedriver and a headless Chromium session with a fresh
/// profile.
async fn start_browser(chromium: &Path, chromedriver: &Path) -> (Client, Driver) {
    let profile = std::env::temp_dir().join(format!("lightsout-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let port = free_port();
    let process = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let driver = Driver { process, profile: profile.clone() };
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| f.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    args.push("--window-size=1200,1500".into());
    let capabilities = json!({"goog:chromeOptions": {"binary": chromium, "args": args}});
    let Value::Object(capabilities) = capabilities else { unreachable!() };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return (client, driver),
            Err(e) if Instant::now() > deadline => panic!("chromedriver did not start a session: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

async fn text(client: &Client, id: &str) -> String {
    client.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Waits until the element `id` shows text containing `wanted`.
async fn wait_for_text(client: &Client, id: &str, wanted: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let shown = text(client, id).await;
        if shown.contains(wanted) {
            return shown;
        }
        assert!(Instant::now() < deadline, "#{id} shows {shown:?}, never {wanted:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click(client: &Client, id: &str) {
    client.find(Locator::Id(id)).await.unwrap().click().await.unwrap();
}

/// Clicks the middle of cell (`r`, `c`) of a canvas showing `rows` × `cols` cells.
async fn click_cell(client: &Client, canvas_id: &str, (rows, cols): (usize, usize), (r, c): (usize, usize)) {
    let size = canvas_size(client, canvas_id).await;
    let (cell_w, cell_h) = (size.0 / cols as f64, size.1 / rows as f64);
    click_at(client, canvas_id, ((c as f64 + 0.5) * cell_w, (r as f64 + 0.5) * cell_h)).await;
}

/// The canvas's size on the page, in CSS pixels.
async fn canvas_size(client: &Client, canvas_id: &str) -> (f64, f64) {
    let script = "const b = document.getElementById(arguments[0]).getBoundingClientRect(); return [b.width, b.height];";
    serde_json::from_value(client.execute(script, vec![json!(canvas_id)]).await.unwrap()).unwrap()
}

/// Clicks a canvas at (`x`, `y`) CSS pixels from its top left corner.
async fn click_at(client: &Client, canvas_id: &str, (x, y): (f64, f64)) {
    // Pointer actions do not scroll: bring the canvas into view first.
    client
        .execute(
            "document.getElementById(arguments[0]).scrollIntoView({block: 'center'})",
            vec![json!(canvas_id)],
        )
        .await
        .unwrap();
    let canvas = client.find(Locator::Id(canvas_id)).await.unwrap();
    let size = canvas_size(client, canvas_id).await;
    // WebDriver offsets are from the element's centre.
    let (x, y) = (x - size.0 / 2.0, y - size.1 / 2.0);
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement { element: canvas, duration: None, x: x.round(), y: y.round() })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    client.perform_actions(mouse).await.unwrap();
}

/// What the board canvas shows in the middle of each cell: `b` black, `w`
/// white, `x` a press mark (the amber disc), `o` a pressed mark (grey).
async fn drawn_board(client: &Client, rows: usize, cols: usize) -> Vec<String> {
    let script = "const [rows, cols] = arguments; const c = document.getElementById('board');
        const g = c.getContext('2d'); const w = c.width / cols, h = c.height / rows; const out = [];
        for (let r = 0; r < rows; r++) { let line = '';
          for (let k = 0; k < cols; k++) {
            const [R, G, B] = g.getImageData(Math.floor((k + 0.5) * w), Math.floor((r + 0.5) * h), 1, 1).data;
            line += R > 200 && G > 120 && G < 200 && B < 60 ? 'x' : R > 200 ? 'w' : R < 40 ? 'b' : 'o'; }
          out.push(line); }
        return out;";
    serde_json::from_value(client.execute(script, vec![json!(rows), json!(cols)]).await.unwrap()).unwrap()
}

/// The cells marked as the proof of impossibility: a white square in a
/// black frame (dark a quarter of the way in, light in the middle).
async fn drawn_proof(client: &Client, rows: usize, cols: usize) -> Vec<String> {
    let script = "const [rows, cols] = arguments; const c = document.getElementById('board');
        const g = c.getContext('2d'); const w = c.width / cols, h = c.height / rows; const out = [];
        const red = (x, y) => g.getImageData(Math.floor(x), Math.floor(y), 1, 1).data[0];
        for (let r = 0; r < rows; r++) { let line = '';
          for (let k = 0; k < cols; k++) {
            const frame = red((k + 0.25) * w, (r + 0.5) * h), middle = red((k + 0.5) * w, (r + 0.5) * h);
            line += frame < 40 && middle > 200 ? 'x' : '.'; }
          out.push(line); }
        return out;";
    serde_json::from_value(client.execute(script, vec![json!(rows), json!(cols)]).await.unwrap()).unwrap()
}

async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), client.screenshot().await.unwrap()).unwrap();
}

/// The CLI's answer for `board`: the best target and its press grid.
fn cli_best(board: &[&str]) -> (String, Vec<String>) {
    let answer = cli_json(&["solve", "--format", "json"], board);
    let target = answer["best"]["target"].as_str().unwrap().to_string();
    let grid = serde_json::from_value(answer[&target]["solution"].clone()).unwrap();
    (target, grid)
}

/// What `lightsout ARGS` prints for `board`, as JSON.
fn cli_json(args: &[&str], board: &[&str]) -> Value {
    let output = Command::cargo_bin("lightsout")
        .unwrap()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all((board.join("\n") + "\n").as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap()
}

const BOARD: [&str; 5] = ["wbbww", "wwwwb", "wbbwb", "wbwbb", "bwbbb"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_draws_boards_solutions_hints_and_quiet_patterns() {
    let Some((chromium, chromedriver)) = browser() else { return };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move { axum::serve(listener, router(Limits::default())).await });
    let (client, _driver) = start_browser(&chromium, &chromedriver).await;

    // A white 5x5 board; set the black cells by clicking them.
    client.goto(&format!("{base}#rows=5&cols=5")).await.unwrap();
    wait_for_text(&client, "analysis", "5×5 plane, rule plus: rank 23, nullity 2").await;
    for (r, row) in BOARD.iter().enumerate() {
        for (c, cell) in row.chars().enumerate() {
            if cell == 'b' {
                click_cell(&client, "board", (5, 5), (r, c)).await;
            }
        }
    }
    wait_for_text(&client, "status", "Set row 5, column 5 to black.").await;
    assert_eq!(drawn_board(&client, 5, 5).await, BOARD, "the clicks drew another board");
    let url = client.current_url().await.unwrap();
    assert!(url.fragment().is_some_and(|f| f.contains("rows=5&cols=5") && f.contains("board=")), "{url}");

    // Solve: the drawn presses are the CLI's for the same board.
    click(&client, "solve").await;
    let (target, grid) = cli_best(&BOARD);
    let presses = grid.iter().map(|r| r.matches('x').count()).sum::<usize>();
    let status = wait_for_text(&client, "status", "presses to all").await;
    assert_eq!(status, format!("{presses} presses to all {target} (proven minimal)."));
    let drawn = drawn_board(&client, 5, 5).await;
    for (r, (drawn_row, press_row)) in drawn.iter().zip(&grid).enumerate() {
        for (c, (shown, press)) in drawn_row.chars().zip(press_row.chars()).enumerate() {
            assert_eq!(
                shown == 'x',
                press == 'x',
                "cell ({r}, {c}): drawn {drawn:?}, the CLI presses {grid:?}"
            );
        }
    }
    screenshot(&client, "solved-5x5.png").await;

    // The hint is a press of that solution.
    click(&client, "hint").await;
    let hint = wait_for_text(&client, "status", "Hint: press row").await;
    let (r, c) = {
        let numbers: Vec<usize> =
            hint.split(|ch: char| !ch.is_ascii_digit()).filter_map(|t| t.parse().ok()).collect();
        (numbers[0] - 1, numbers[1] - 1)
    };
    assert_eq!(grid[r].as_bytes()[c], b'x', "{hint} is not a press of {grid:?}");
    screenshot(&client, "hint-5x5.png").await;

    // Stepping through the solution reaches the target.
    for k in 1..=presses {
        click(&client, "step").await;
        wait_for_text(&client, "status", &format!("Step {k} of {presses}.")).await;
    }
    wait_for_text(&client, "status", &format!("The board is all {target}.")).await;

    // A board that cannot be cleared: one black corner. The page marks the
    // pattern that proves it, the one `lightsout check` gives.
    click(&client, "clear").await;
    click_cell(&client, "board", (5, 5), (0, 0)).await;
    click(&client, "solve").await;
    wait_for_text(&client, "status", "Impossible: no presses make this board all white or all black").await;
    let corner = ["bwwww", "wwwww", "wwwww", "wwwww", "wwwww"];
    let proof = cli_json(&["check", "--format", "json", "--target", "white"], &corner);
    let proof: Vec<String> = serde_json::from_value(proof["white"]["obstruction"].clone()).unwrap();
    assert_eq!(drawn_proof(&client, 5, 5).await, proof);
    screenshot(&client, "impossible-5x5.png").await;

    // A quiet pattern opens in a dialog.
    client.find(Locator::Css("#quiet button")).await.unwrap().click().await.unwrap();
    wait_for_text(&client, "pattern-title", "Quiet pattern 1 of 5×5: 16 presses").await;
    screenshot(&client, "quiet-pattern-5x5.png").await;
    click(&client, "pattern-close").await;

    // Another size and rule: 8x8 with the king's rule has 15 quiet patterns.
    for (id, value) in [("rows", "8"), ("cols", "8")] {
        let input = client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(&format!("{value}{}", char::from(Key::Tab))).await.unwrap();
    }
    client.find(Locator::Id("rule")).await.unwrap().select_by_value("king").await.unwrap();
    wait_for_text(&client, "analysis", "8×8 plane, rule king: rank 49, nullity 15").await;
    let quiet = client.find_all(Locator::Css("#quiet button")).await.unwrap();
    assert_eq!(quiet.len(), 15);
    let url = client.current_url().await.unwrap();
    assert!(url.fragment().is_some_and(|f| f.contains("rows=8&cols=8&rule=king")), "{url}");

    // A drawn rule: the mask starts as plus; without its centre it is
    // the neighbours rule, and a far corner makes it a mask of its own.
    client.find(Locator::Id("rule")).await.unwrap().select_by_value("mask").await.unwrap();
    client.find(Locator::Css("#mask button.centre")).await.unwrap().click().await.unwrap();
    wait_for_text(&client, "analysis", "8×8 plane, rule neighbours:").await;
    client.find(Locator::Css("#mask button:first-child")).await.unwrap().click().await.unwrap();
    wait_for_text(&client, "analysis", "8×8 plane, rule 10000/00100/01010/00100/00000:").await;
    client.find(Locator::Id("rule")).await.unwrap().select_by_value("king").await.unwrap();
    wait_for_text(&client, "analysis", "8×8 plane, rule king").await;

    // The keyboard: focus the board, move right, press (play mode).
    client.find(Locator::Css("input[name=mode][value=play]")).await.unwrap().click().await.unwrap();
    let board = client.find(Locator::Id("board")).await.unwrap();
    board.click().await.unwrap();
    board.send_keys(&format!("{}{} ", char::from(Key::Down), char::from(Key::Right))).await.unwrap();
    wait_for_text(&client, "status", "Pressed row").await;
    click(&client, "random-solvable").await;
    click(&client, "solve").await;
    wait_for_text(&client, "status", "presses to all").await;
    screenshot(&client, "king-8x8.png").await;

    // A large board: 128x128, random but solvable, solved on the page.
    for (id, value) in [("rows", "128"), ("cols", "128")] {
        let input = client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(&format!("{value}{}", char::from(Key::Tab))).await.unwrap();
    }
    wait_for_text(&client, "status", "A white 128×128 board.").await;
    click(&client, "random-solvable").await;
    click(&client, "solve").await;
    wait_for_text(&client, "status", "presses to all").await;
    client.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    screenshot(&client, "large-128x128.png").await;

    // The nullity map links back to a size.
    // Squares of 11 pixels for 64 sizes, after 34 pixels of row labels and
    // 18 of column labels (app.js): the square of 4 rows, 5 columns.
    click_at(&client, "heatmap", (34.0 + 4.5 * 11.0, 18.0 + 3.5 * 11.0)).await;
    wait_for_text(&client, "status", "A white 4×5 board.").await;
    client.execute("document.getElementById('heat-area').scrollIntoView()", vec![]).await.unwrap();
    screenshot(&client, "nullity-map.png").await;

    // A long request shows its time and can be cancelled: the map of the
    // torus for 1..64 x 1..64 takes seconds.
    click(&client, "torus").await;
    for (id, value) in [("heat-rows", "1..64"), ("heat-cols", "1..64")] {
        let input = client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(value).await.unwrap();
    }
    click(&client, "heat").await;
    wait_for_text(&client, "busy", "Working…").await;
    screenshot(&client, "working.png").await;
    click(&client, "cancel").await;
    wait_for_text(&client, "heat-info", "Cancelled.").await;
    let busy = client.find(Locator::Id("busy")).await.unwrap();
    assert!(!busy.is_displayed().await.unwrap(), "the busy line stayed after the cancel");

    client.close().await.unwrap();
    server.abort();
}
