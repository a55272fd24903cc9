//! The article's figure: P(T = n) against `n`, for the exact law, the article's formula
//! and simulations, drawn with plotters.

use plotters::prelude::*;
use std::path::Path;
use tabula::bingo::sampled::Series;
use tabula::{Error, Result};

/// Writes an SVG of `series` to `path`, `title` on top.
pub fn write_svg(path: &Path, title: &str, series: &[Series]) -> Result<()> {
    let fail = |e: &dyn std::fmt::Display| {
        Error::io(
            path.display().to_string(),
            std::io::Error::other(format!("could not draw: {e}")),
        )
    };
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
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("calls n")
        .y_desc("P(T = n)")
        .draw()
        .map_err(|e| fail(&e))?;
    let colours = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    for (i, s) in series.iter().enumerate() {
        let colour = colours[i % colours.len()];
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                colour.stroke_width(2),
            ))
            .map_err(|e| fail(&e))?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_svg_with_every_label_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("law.svg");
        let series = vec![
            Series {
                label: "exact".into(),
                points: vec![(0.0, 0.0), (1.0, 0.5), (2.0, 0.5)],
            },
            Series {
                label: "formula".into(),
                points: vec![(0.0, 0.0), (1.0, 0.4), (2.0, 0.6)],
            },
        ];
        write_svg(&path, "test", &series).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("exact") && svg.contains("formula"));
    }

    #[test]
    fn an_unwritable_path_is_a_failure_not_a_panic() {
        let series = vec![Series {
            label: "x".into(),
            points: vec![(0.0, 0.1)],
        }];
        let e = write_svg(Path::new("/nonexistent/dir/x.svg"), "t", &series).unwrap_err();
        assert_eq!(crate::cmd::exit_code(&e), 1);
    }
}
