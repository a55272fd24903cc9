//! The article's figure: P(T = n) against `n`, for the exact law, the article's formula
//! and any number of simulations, drawn with plotters as an SVG or a PNG.
//!
//! Text is laid out and (in a PNG) drawn with a font compiled into the binary (Ubuntu
//! Light from `epaint_default_fonts`, through plotters' `ab_glyph` support), so no system
//! font is needed.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;
use tabula::bingo::sampled::{Curve, Series};
use tabula::{Error, Result};

/// The picture's size in pixels.
const SIZE: (u32, u32) = (900, 560);

/// The image format, from the file name: PNG for `.png`, SVG otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("png") => Format::Png,
            _ => Format::Svg,
        }
    }
}

/// Registers the embedded font as plotters' `sans-serif`, once.
fn font() -> std::result::Result<(), &'static str> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        )
        .is_ok()
    });
    ok.then_some(())
        .ok_or("the embedded font could not be read")
}

/// Writes the figure of `series` to `path` (SVG or PNG by its extension), `title` on top.
pub fn write(path: &Path, title: &str, series: &[Series]) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| {
        Error::io(
            path.display().to_string(),
            std::io::Error::other(format!("could not draw: {e}")),
        )
    };
    font().map_err(|e| fail(&e))?;
    // Drawn in memory, then written through the atomic writer.
    let bytes = match Format::of(path) {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
                draw(&root, title, series).map_err(|e| fail(&e))?;
            }
            svg.into_bytes()
        }
        Format::Png => {
            let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
                draw(&root, title, series).map_err(|e| fail(&e))?;
            }
            let mut png = Vec::new();
            let mut encoder = png::Encoder::new(&mut png, SIZE.0, SIZE.1);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder
                .write_header()
                .and_then(|mut w| w.write_image_data(&rgb))
                .map_err(|e| fail(&e))?;
            png
        }
    };
    tabula::table::write_file(path, |out| -> Result<()> {
        out.write_all(&bytes)
            .map_err(|e| Error::io(path.display().to_string(), e))
    })
}

/// Colours of the curves: the exact law, the formula, then the simulations in turn.
const SIMULATION_COLOURS: [RGBColor; 6] = [
    RGBColor(0, 158, 115),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

/// Draws the figure on any backend: the exact law and the formula as lines, each
/// simulation as dots, one legend for all.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    series: &[Series],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let x_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold(1.0, f64::max);
    let y_max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0, f64::max)
        * 1.1;
    let y_max = if y_max > 0.0 { y_max } else { 1.0 };
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("calls n")
        .y_desc("P(T = n)")
        .draw()?;
    let mut simulations = 0;
    for s in series {
        match s.curve {
            Curve::Exact | Curve::Formula => {
                let colour = if s.curve == Curve::Exact { BLUE } else { RED };
                chart
                    .draw_series(LineSeries::new(
                        s.points.iter().copied(),
                        colour.stroke_width(2),
                    ))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                    });
            }
            Curve::Simulation(_) => {
                let colour = SIMULATION_COLOURS[simulations % SIMULATION_COLOURS.len()];
                simulations += 1;
                chart
                    .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?
                    .label(s.label.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 3, colour.filled()));
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> Vec<Series> {
        let curve = |curve, label: &str, points: Vec<(f64, f64)>| Series {
            curve,
            label: label.into(),
            points,
        };
        vec![
            curve(
                Curve::Exact,
                "exact",
                vec![(0.0, 0.0), (1.0, 0.5), (2.0, 0.5)],
            ),
            curve(
                Curve::Formula,
                "formula",
                vec![(0.0, 0.0), (1.0, 0.4), (2.0, 0.6)],
            ),
            curve(
                Curve::Simulation(10),
                "sim 10",
                vec![(1.0, 0.3), (2.0, 0.7)],
            ),
            curve(
                Curve::Simulation(99),
                "sim 99",
                vec![(1.0, 0.6), (2.0, 0.4)],
            ),
        ]
    }

    #[test]
    fn an_svg_with_every_label_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("law.svg");
        write(&path, "test", &series()).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        for label in ["exact", "formula", "sim 10", "sim 99"] {
            assert!(svg.contains(label), "{label}");
        }
    }

    #[test]
    fn a_png_is_written_when_the_name_ends_in_png() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("law.PNG");
        write(&path, "test", &series()).unwrap();
        let png = std::fs::read(&path).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height, big-endian, at bytes 16..24.
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((width, height), SIZE);
    }

    #[test]
    fn the_title_is_drawn_in_pixels_with_the_embedded_font() {
        // Draw into memory with and without a title and count the dark pixels in the
        // middle of the top band, where the title goes.
        let band = |title: &str| {
            font().unwrap();
            let mut buffer = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut buffer, SIZE).into_drawing_area();
                draw(&root, title, &series()).unwrap();
            }
            let mut dark = 0;
            for y in 0..36 {
                for x in 300..600 {
                    let i = ((y * SIZE.0 + x) * 3) as usize;
                    dark += usize::from(buffer[i..i + 3].iter().all(|&c| c < 128));
                }
            }
            dark
        };
        assert!(band("bingo 5×5, P(T = n)") > band("") + 50);
    }

    #[test]
    fn an_unwritable_path_is_a_failure_not_a_panic() {
        for name in ["x.svg", "x.png"] {
            let path = Path::new("/nonexistent/dir").join(name);
            let e = write(&path, "t", &series()).unwrap_err();
            assert_eq!(crate::cmd::exit_code(&e), 1);
            assert!(e.to_string().contains("/nonexistent/dir"));
        }
    }
}
