//! The summary's plots, as PNG and SVG bytes (no browser or Python): calibrated
//! accuracy per family per agent with interval bars, against evidence age,
//! against the horizon (cutoff day), and against the robot's presence.
//! Text is drawn with the Ubuntu Light font embedded from `assets/fonts`
//! (Ubuntu Font Licence 1.0, beside it), so the PNGs look the same on every
//! machine.

use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use thiserror::Error;

use super::bootstrap::Stat;
use super::facts::AGE_BINS;
use super::summary::Summary;
use crate::samples::Family;

const FONT: &[u8] = include_bytes!("../../assets/fonts/Ubuntu-Light.ttf");
const SIZE: (u32, u32) = (1400, 700);
/// The y axis runs past 1 to leave the legend, a line per agent, room
/// above the data.
fn y_top(agents: usize) -> f64 {
    (1.08 + 0.05 * agents as f64).max(1.35)
}

/// Tableau's ten colours: one per agent, in order.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

#[derive(Debug, Error, PartialEq)]
pub enum PlotError {
    #[error("drawing the {chart} plot: {why}")]
    Draw { chart: &'static str, why: String },
}

/// One plot in both formats.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem: `families`, `evidence_age`, `horizon`, `presence`.
    pub name: &'static str,
    pub png: Vec<u8>,
    pub svg: String,
}

#[derive(Clone, Copy)]
enum Chart {
    Families,
    EvidenceAge,
    Horizon,
    Presence,
}

impl Chart {
    fn name(self) -> &'static str {
        match self {
            Chart::Families => "families",
            Chart::EvidenceAge => "evidence_age",
            Chart::Horizon => "horizon",
            Chart::Presence => "presence",
        }
    }
}

/// Each agent's colour: the palette in order, except that a words-only
/// row (`obsmem-words`) takes a paler shade of its parsed twin's, so the
/// pairs read together.
fn colours<S: AsRef<str>>(agents: &[S]) -> Vec<RGBColor> {
    let mut next = 0;
    let mut out: Vec<RGBColor> = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        let twin = a
            .as_ref()
            .strip_suffix("-words")
            .and_then(|base| agents[..i].iter().position(|b| b.as_ref() == base));
        out.push(match twin {
            Some(j) => {
                let RGBColor(r, g, b) = out[j];
                let pale = |x: u8| x + ((255 - x) as f64 * 0.55) as u8;
                RGBColor(pale(r), pale(g), pale(b))
            }
            None => {
                next += 1;
                COLOURS[(next - 1) % COLOURS.len()]
            }
        });
    }
    out
}

/// Every plot of `s`.
pub fn figures(s: &Summary) -> Result<Vec<Figure>, PlotError> {
    static FONT_ONCE: Once = Once::new();
    FONT_ONCE.call_once(|| {
        // The embedded font is a valid TTF (checked by the tests).
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
    [
        Chart::Families,
        Chart::EvidenceAge,
        Chart::Horizon,
        Chart::Presence,
    ]
    .into_iter()
    .map(|c| {
        let err = |why: String| PlotError::Draw {
            chart: c.name(),
            why,
        };
        let mut rgb = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
            draw(c, &root, s).map_err(err)?;
            root.present().map_err(|e| err(e.to_string()))?;
        }
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
            draw(c, &root, s).map_err(err)?;
            root.present().map_err(|e| err(e.to_string()))?;
        }
        Ok(Figure {
            name: c.name(),
            png: encode_png(&rgb).map_err(|e| err(e.to_string()))?,
            svg,
        })
    })
    .collect()
}

fn encode_png(rgb: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, SIZE.0, SIZE.1);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    Ok(out)
}

fn draw<DB: DrawingBackend>(
    c: Chart,
    root: &DrawingArea<DB, Shift>,
    s: &Summary,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    match c {
        Chart::Families => families(root, s),
        Chart::EvidenceAge => {
            // The bins any agent has questions in, in age order.
            let labels: Vec<String> = AGE_BINS
                .iter()
                .map(|b| b.1.to_string())
                .filter(|l| {
                    s.agents
                        .iter()
                        .any(|a| a.by_evidence_age.iter().any(|b| b.label == *l))
                })
                .collect();
            let series = s
                .agents
                .iter()
                .map(|a| {
                    let points = a
                        .by_evidence_age
                        .iter()
                        .filter_map(|b| {
                            let i = labels.iter().position(|l| *l == b.label)?;
                            Some((i, b.stat.clone()))
                        })
                        .collect();
                    (a.agent.as_str(), points)
                })
                .collect();
            binned(
                root,
                "Calibrated accuracy by evidence age (latest evidence to question; 95% interval)",
                "evidence age",
                &labels,
                series,
            )
        }
        Chart::Horizon => {
            let mut days: Vec<&str> = s
                .agents
                .iter()
                .flat_map(|a| a.by_horizon.iter().map(|b| b.label.as_str()))
                .collect();
            days.sort_by_key(|d| d.trim_start_matches("day ").parse::<u32>().unwrap_or(0));
            days.dedup();
            let labels: Vec<String> = days.iter().map(|d| d.to_string()).collect();
            let series = s
                .agents
                .iter()
                .map(|a| {
                    let points = a
                        .by_horizon
                        .iter()
                        .filter_map(|b| {
                            Some((labels.iter().position(|l| *l == b.label)?, b.stat.clone()))
                        })
                        .collect();
                    (a.agent.as_str(), points)
                })
                .collect();
            binned(
                root,
                "Calibrated accuracy by horizon (the question's day; 95% interval)",
                "day of the question",
                &labels,
                series,
            )
        }
        Chart::Presence => presence(root, s),
    }
}

/// Per-family bars per agent with interval bars.
fn families<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, s: &Summary) -> Result<(), String> {
    let fams: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|f| s.agents.iter().any(|a| a.by_family.contains_key(f)))
        .collect();
    let n = fams.len().max(1);
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Calibrated accuracy by question family (95% scene-bootstrap interval)",
            ("sans-serif", 24),
        )
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..y_top(s.agents.len()))
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| label_at(*x, &fams.iter().map(|f| f.name()).collect::<Vec<_>>()))
        .x_label_style(("sans-serif", 15))
        .y_desc("calibrated accuracy")
        .y_label_formatter(&accuracy_label)
        .y_label_style(("sans-serif", 15))
        .draw()
        .map_err(e)?;
    let k = s.agents.len().max(1) as f64;
    let w = 0.8 / k;
    let palette = colours(&s.agents.iter().map(|a| &a.agent).collect::<Vec<_>>());
    for (j, a) in s.agents.iter().enumerate() {
        let c = palette[j];
        let bars: Vec<(f64, &Stat)> = fams
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((i as f64 - 0.4 + (j as f64 + 0.5) * w, a.by_family.get(f)?)))
            .collect();
        chart
            .draw_series(bars.iter().map(|(x, st)| {
                Rectangle::new([(x - w * 0.45, 0.0), (x + w * 0.45, st.mean)], c.filled())
            }))
            .map_err(e)?
            .label(a.agent.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], c.filled()));
        chart
            .draw_series(bars.iter().map(|(x, st)| {
                ErrorBar::new_vertical(*x, st.lo, st.mean, st.hi, BLACK.stroke_width(1), 6)
            }))
            .map_err(e)?;
    }
    legend(&mut chart).map_err(e)
}

/// Lines over categorical bins, one per agent, with interval bars.
fn binned<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    labels: &[String],
    series: Vec<(&str, Vec<(usize, Stat)>)>,
) -> Result<(), String> {
    let n = labels.len().max(1);
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..y_top(series.len()))
        .map_err(e)?;
    let names: Vec<&str> = labels.iter().map(String::as_str).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| label_at(*x, &names))
        .x_label_style(("sans-serif", 15))
        .x_desc(x_desc)
        .y_desc("calibrated accuracy")
        .y_label_formatter(&accuracy_label)
        .y_label_style(("sans-serif", 15))
        .draw()
        .map_err(e)?;
    let k = series.len() as f64;
    let palette = colours(&series.iter().map(|(a, _)| *a).collect::<Vec<_>>());
    for (j, (agent, points)) in series.into_iter().enumerate() {
        let c = palette[j];
        // A small offset per agent keeps the interval bars apart.
        let dx = (j as f64 - (k - 1.0) / 2.0) * 0.04;
        let xy: Vec<(f64, f64)> = points
            .iter()
            .map(|(i, st)| (*i as f64 + dx, st.mean))
            .collect();
        chart
            .draw_series(LineSeries::new(xy.clone(), c.stroke_width(2)))
            .map_err(e)?
            .label(agent)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], c.stroke_width(2)));
        chart
            .draw_series(xy.iter().map(|p| Circle::new(*p, 4, c.filled())))
            .map_err(e)?;
        chart
            .draw_series(points.iter().map(|(i, st)| {
                ErrorBar::new_vertical(*i as f64 + dx, st.lo, st.mean, st.hi, c.stroke_width(1), 6)
            }))
            .map_err(e)?;
    }
    legend(&mut chart).map_err(e)
}

/// Each household's accuracy against the robot's presence there, per
/// agent, with its least-squares line.
fn presence<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, s: &Summary) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let xs: Vec<f64> = s.households.iter().map(|h| h.presence).collect();
    let (lo, hi) = xs
        .iter()
        .fold((1.0f64, 0.0f64), |(l, h), x| (l.min(*x), h.max(*x)));
    let (lo, hi) = if lo > hi {
        (0.0, 1.0)
    } else {
        ((lo - 0.05).max(0.0), (hi + 0.05).min(1.0))
    };
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Calibrated accuracy (filled) and world accuracy (hollow) against the robot's presence",
            ("sans-serif", 24),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(lo..hi, 0f64..y_top(s.agents.len()))
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("robot presence (share of others' events it perceived)")
        .y_desc("accuracy (filled), world accuracy (hollow)")
        .y_label_formatter(&accuracy_label)
        .label_style(("sans-serif", 15))
        .draw()
        .map_err(e)?;
    let against =
        |ys: &[f64]| -> Vec<(f64, f64)> { xs.iter().copied().zip(ys.iter().copied()).collect() };
    let palette = colours(&s.agents.iter().map(|a| &a.agent).collect::<Vec<_>>());
    for (j, a) in s.agents.iter().enumerate() {
        let c = palette[j];
        let (pts, world) = (against(&a.by_household), against(&a.world_by_household));
        chart
            .draw_series(pts.iter().map(|p| Circle::new(*p, 5, c.filled())))
            .map_err(e)?
            .label(a.agent.clone())
            .legend(move |(x, y)| Circle::new((x + 6, y), 5, c.filled()));
        chart
            .draw_series(world.iter().map(|p| Circle::new(*p, 5, c.stroke_width(2))))
            .map_err(e)?;
        for pts in [&pts, &world] {
            if let Some((m, b)) = fit(pts) {
                chart
                    .draw_series(LineSeries::new(
                        [(lo, m * lo + b), (hi, m * hi + b)],
                        c.stroke_width(1),
                    ))
                    .map_err(e)?;
            }
        }
    }
    legend(&mut chart).map_err(e)
}

fn legend<'a, DB: DrawingBackend + 'a, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
}

/// Accuracy ticks up to 1 (the axis above is the legend's).
fn accuracy_label(y: &f64) -> String {
    if *y <= 1.0 + 1e-9 {
        format!("{y:.1}")
    } else {
        String::new()
    }
}

/// The label of the category at `x`, if `x` is one's position.
fn label_at(x: f64, labels: &[&str]) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    labels
        .get(i as usize)
        .map_or(String::new(), |l| l.to_string())
}

/// Least squares `y = m x + b`, if the x values spread.
fn fit(pts: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    (pts.len() >= 2 && sxx > 1e-12).then(|| (sxy / sxx, my - sxy / sxx * mx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_fits() {
        assert_eq!(label_at(1.0, &["a", "b"]), "b");
        assert_eq!(label_at(0.5, &["a", "b"]), "");
        assert_eq!(label_at(2.0, &["a", "b"]), "");
        let (m, b) = fit(&[(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)]).unwrap();
        assert!((m - 2.0).abs() < 1e-12 && (b - 1.0).abs() < 1e-12);
        assert_eq!(fit(&[(0.5, 1.0), (0.5, 0.0)]), None);
        assert!(ab_glyph_font_loads());
    }

    #[test]
    fn words_rows_take_a_paler_shade_of_their_twin() {
        let c = colours(&["oracle", "bm25", "bm25-words", "kg-words", "obsmem"]);
        // Parsed rows and a words row without its twin take the palette in turn.
        assert_eq!(
            (c[0], c[1], c[3], c[4]),
            (COLOURS[0], COLOURS[1], COLOURS[2], COLOURS[3])
        );
        let (RGBColor(r, g, b), RGBColor(r2, g2, b2)) = (c[1], c[2]);
        assert!(r2 >= r && g2 > g && b2 > b, "{:?}", c[2]);
        // Eleven agents: no two alike, and the legend fits above the data.
        let eleven = [
            "oracle",
            "none",
            "recent",
            "bm25",
            "obsmem",
            "kg",
            "oracle-words",
            "obsmem-words",
            "kg-words",
            "recent-words",
            "bm25-words",
        ];
        let c = colours(&eleven);
        let distinct: std::collections::BTreeSet<(u8, u8, u8)> =
            c.iter().map(|RGBColor(r, g, b)| (*r, *g, *b)).collect();
        assert_eq!(distinct.len(), 11);
        assert!(y_top(11) > y_top(7) && y_top(7) >= 1.35);
    }

    fn ab_glyph_font_loads() -> bool {
        plotters::style::register_font("test-font", FontStyle::Normal, FONT).is_ok()
    }
}
