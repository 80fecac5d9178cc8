//! The server's pictures, over stdio with the real binary: the `sudoku.render` command answers
//! with the SVG of the puzzle at a position, and a hover on a puzzle's title line carries the
//! picture as an inline Markdown image, only for a client that says it draws images (the
//! `hoverPictures` option, which the VS Code extension sends): Neovim renders Markdown but
//! draws no image, and showed 25 blank rows for one.

use crate::common;

use common::{easy_rows, full_capabilities, Server};
use serde_json::{json, Value};

const TEXT: &str = concat!("# title: Picture me\n", easy_rows!());

/// The SVG text's given digits, in document order.
fn givens(svg: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    document
        .descendants()
        .filter(|n| n.attribute("class") == Some("given"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

fn render(server: &mut Server, uri: &str, line: u64, extra: Value) -> Value {
    let mut argument = json!({"uri": uri, "position": {"line": line, "character": 0}});
    for (key, value) in extra.as_object().unwrap() {
        argument[key] = value.clone();
    }
    server.request(
        "workspace/executeCommand",
        json!({"command": "sudoku.render", "arguments": [argument]}),
    )
}

#[test]
fn the_render_command_answers_with_the_puzzles_svg() {
    let mut server = Server::spawn();
    let init = server.initialize(full_capabilities());
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(
        commands
            .as_array()
            .unwrap()
            .contains(&json!("sudoku.render")),
        "{init}"
    );
    let uri = "file:///t/picture.sudoku";
    server.open_and_check(uri, TEXT);

    // From any line of the puzzle: its title, a row.
    for line in [0, 5] {
        let response = render(&mut server, uri, line, json!({}));
        let svg = response["result"]
            .as_str()
            .unwrap_or_else(|| panic!("{response}"));
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("Picture me"));
        let digits: String = easy_rows!()
            .chars()
            .filter(|c| c.is_ascii_digit())
            .collect();
        assert_eq!(givens(svg).concat(), digits);
        assert!(!svg.contains("class=\"solution\""));
    }
    let response = render(&mut server, uri, 3, json!({"solution": true}));
    let svg = response["result"].as_str().unwrap();
    assert_eq!(
        svg.matches("class=\"solution\"").count(),
        81 - givens(svg).len()
    );

    // Past the puzzle, or in a file not open: an error that says why.
    let text_lines = TEXT.lines().count() as u64;
    let response = render(&mut server, uri, text_lines + 3, json!({}));
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no puzzle"),
        "{response}"
    );
    let response = render(&mut server, "file:///t/closed.sudoku", 1, json!({}));
    assert!(response.get("error").is_some(), "{response}");
    server.shutdown_and_exit();
}

/// The SVG inside a hover's Markdown image, decoded.
fn hover_picture(markdown: &str) -> Option<String> {
    use base64::Engine;
    let start = markdown.find("](data:image/svg+xml;base64,")?;
    let data = &markdown[start + "](data:image/svg+xml;base64,".len()..];
    let data = &data[..data.find(')').expect("the image's end")];
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .expect("base64");
    Some(String::from_utf8(bytes).expect("UTF-8 SVG"))
}

/// A server for a client that renders Markdown, initialized with `options`, `TEXT` open at `uri`.
fn markdown_server(uri: &str, client: Value, options: Value) -> Server {
    let mut server = Server::spawn();
    let params = json!({"processId": null, "rootUri": null, "capabilities": full_capabilities(),
                        "clientInfo": client, "initializationOptions": options});
    server.request("initialize", params);
    server.notify("initialized", json!({}));
    server.open_and_check(uri, TEXT);
    server
}

#[test]
fn hover_on_a_title_shows_the_picture_to_a_client_that_draws_images() {
    let uri = "file:///t/hover-picture.sudoku";
    let vscode = json!({"name": "Visual Studio Code", "version": "1.100.3"});
    let mut server = markdown_server(uri, vscode, json!({"hoverPictures": true}));
    let hover = server.hover(uri, json!({"line": 0, "character": 4}));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    let svg = hover_picture(markdown).unwrap_or_else(|| panic!("no picture: {markdown}"));
    assert!(svg.contains("Picture me") && svg.starts_with("<svg"));
    let digits = easy_rows!().chars().filter(|c| c.is_ascii_digit()).count();
    assert_eq!(givens(&svg).len(), digits);
    // Not on a cell: a cell's hover is about the cell.
    let cell = server.hover(uri, json!({"line": 2, "character": 2}));
    assert!(hover_picture(cell["contents"]["value"].as_str().unwrap()).is_none());
    // The option is no setting the server warns of as unknown.
    server.drain(std::time::Duration::from_millis(100));
    let warned = server.log.iter().any(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("hoverPictures")
    });
    assert!(!warned, "{:#?}", server.log);
    server.shutdown_and_exit();
}

#[test]
fn hover_on_a_title_is_text_alone_for_clients_that_draw_no_images() {
    let uri = "file:///t/hover-text.sudoku";
    // Neovim renders Markdown (and says so) but draws no image: the float showed the image's
    // alt text and a blank row for each line of its data.
    let neovim = json!({"name": "Neovim", "version": "0.11.4"});
    let mut server = markdown_server(uri, neovim, Value::Null);
    let hover = server.hover(uri, json!({"line": 0, "character": 4}));
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert!(markdown.contains("Picture me"), "{markdown}");
    assert!(
        !markdown.contains("data:image") && !markdown.contains("!["),
        "{markdown}"
    );
    server.shutdown_and_exit();

    // A client that shows plain text gets no image markup either.
    let mut server = Server::spawn();
    server.initialize(json!({"textDocument": {"hover": {"contentFormat": ["plaintext"]}}}));
    server.open_and_check(uri, TEXT);
    let hover = server.hover(uri, json!({"line": 0, "character": 4}));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "plaintext");
    assert!(!text.contains("data:image"), "{text}");
    server.shutdown_and_exit();
}
