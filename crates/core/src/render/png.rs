//! The SVG of a picture rasterised to PNG (resvg), with the system's fonts.
//!
//! Text needs a font: the fonts are loaded once, from the system's font folders, or only from
//! the folder `SUDOKU_LSP_FONT_DIR` names when it is set. With no font at all the digits would
//! silently vanish, so that is an error that says what to install, never a blank picture.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};

use super::{PngError, SOFTWARE};

/// Where to look for fonts instead of the system's folders.
pub const FONT_DIR_VAR: &str = "SUDOKU_LSP_FONT_DIR";

/// The PNG of an SVG picture, at one pixel per SVG unit.
pub fn png(svg: &str) -> Result<Vec<u8>, PngError> {
    let options = usvg::Options {
        fontdb: fonts()?,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| PngError::Render(format!("cannot read the picture's SVG: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PngError::Render(format!("cannot make a {size:?} picture")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode(&pixmap).map_err(|e| PngError::Render(format!("cannot encode the PNG: {e}")))
}

/// The pixels as a PNG with our `Software` text chunk. tiny-skia's own encoder writes no text
/// chunks; the `png` crate is the one it uses underneath.
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ::png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(::png::ColorType::Rgba);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.add_text_chunk(SOFTWARE.0.to_string(), SOFTWARE.1.to_string())?;
    let mut writer = encoder.write_header()?;
    // tiny-skia keeps premultiplied colours; the picture is drawn on an opaque white
    // background, where premultiplied and straight colours are the same.
    writer.write_image_data(pixmap.data())?;
    writer.finish()?;
    Ok(out)
}

/// The font database, loaded on first use; an error when it holds no font.
fn fonts() -> Result<Arc<fontdb::Database>, PngError> {
    static FONTS: OnceLock<Result<Arc<fontdb::Database>, PngError>> = OnceLock::new();
    FONTS.get_or_init(load_fonts).clone()
}

fn load_fonts() -> Result<Arc<fontdb::Database>, PngError> {
    let mut db = fontdb::Database::new();
    let looked_at = match std::env::var_os(FONT_DIR_VAR) {
        Some(dir) => {
            db.load_fonts_dir(&dir);
            format!("{FONT_DIR_VAR}={}", std::path::Path::new(&dir).display())
        }
        None => {
            db.load_system_fonts();
            "the system's font folders".to_string()
        }
    };
    let Some(first) = db.faces().next() else {
        return Err(PngError::NoFont(format!(
            "no font found to draw the digits with (looked in {looked_at}): install one \
             (Debian and Ubuntu: apt-get install fonts-dejavu-core), point {FONT_DIR_VAR} at a \
             folder of .ttf files, or use --format svg"
        )));
    };
    let fallback = first.families.first().map(|(name, _)| name.clone());
    // The SVG asks for DejaVu Sans, then the usual sans-serif fonts, then `sans-serif`: when
    // none of them is here, `sans-serif` is whatever font there is.
    let wanted = [
        fontdb::Family::Name("DejaVu Sans"),
        fontdb::Family::Name("Verdana"),
        fontdb::Family::Name("Arial"),
        fontdb::Family::Name("Helvetica"),
        fontdb::Family::SansSerif,
    ];
    let query = fontdb::Query {
        families: &wanted,
        ..fontdb::Query::default()
    };
    if db.query(&query).is_none() {
        if let Some(family) = fallback {
            db.set_sans_serif_family(family);
        }
    }
    Ok(Arc::new(db))
}
