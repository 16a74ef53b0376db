//! The drawing layer of the charts: an SVG document as text, panels with their axes, and the
//! scales and tick labels of those axes. Text is written as `<text>` elements in the browser's
//! sans-serif font, so no font is read or measured here; widths are estimated from the number
//! of characters.

use std::fmt::Write;

/// Average width of a character of the sans-serif font, as a fraction of its size.
const CHAR_WIDTH: f64 = 0.6;

/// The estimated width of `text` at `size` pixels.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * CHAR_WIDTH
}

/// `text` with the characters that XML reserves escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// `text` cut to at most `chars` characters, with an ellipsis when something was cut.
pub fn shorten(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let mut short: String = text.chars().take(chars.saturating_sub(1)).collect();
    short.push('…');
    short
}

/// An SVG document being written.
pub struct Svg {
    text: String,
}

impl Svg {
    /// A white page of `width` x `height` pixels, `title` as the document's title.
    pub fn new(width: f64, height: f64, title: &str) -> Svg {
        let mut svg = Svg {
            text: String::new(),
        };
        svg.raw(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n<title>{}</title>\n\
             <rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n",
            escape(title)
        ));
        svg
    }

    /// Text written as it is (already valid SVG).
    pub fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
        let _ = writeln!(
            self.text,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {style}/>"
        );
    }

    /// `content` at (x, y); `attributes` such as `text-anchor="end"` or a class.
    pub fn text(&mut self, (x, y): (f64, f64), size: f64, attributes: &str, content: &str) {
        let _ = writeln!(
            self.text,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" {attributes}>{}</text>",
            escape(content)
        );
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }
}

/// How values map onto a vertical axis.
#[derive(Clone, Copy, Debug)]
pub enum Scale {
    /// From 0 to `max`, ticks every `step`.
    Linear { max: f64, step: f64 },
    /// From `10^low` to `10^high` (whole or fractional exponents), ticks at the powers of 10.
    Log { low: f64, high: f64 },
}

impl Scale {
    /// A linear scale from 0 that holds `max`, with about five ticks at 1, 2 or 5 x 10^k.
    pub fn linear(max: f64) -> Scale {
        let max = if max > 0.0 { max } else { 1.0 };
        let rough = max / 5.0;
        let power = 10f64.powf(rough.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * power)
            .find(|&s| s >= rough)
            .unwrap_or(10.0 * power);
        Scale::Linear {
            max: (max / step).ceil() * step,
            step,
        }
    }

    /// A logarithmic scale over whole decades holding every value of `values` (positive ones;
    /// at least one decade).
    pub fn log(values: impl Iterator<Item = f64>) -> Scale {
        let (mut min, mut max) = (f64::INFINITY, 0f64);
        for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
            min = min.min(v);
            max = max.max(v);
        }
        if max == 0.0 {
            (min, max) = (1.0, 10.0);
        }
        let low = min.log10().floor();
        let high = max.log10().ceil().max(low + 1.0);
        Scale::Log { low, high }
    }

    /// Where `value` falls, from 0 (bottom) to 1 (top), clamped.
    pub fn fraction(&self, value: f64) -> f64 {
        let f = match *self {
            Scale::Linear { max, .. } => value / max,
            Scale::Log { low, high } => {
                if value <= 0.0 {
                    0.0
                } else {
                    (value.log10() - low) / (high - low)
                }
            }
        };
        f.clamp(0.0, 1.0)
    }

    /// The ticks: (value, labelled); a log scale has unlabelled ticks at 2-9 x 10^k where the
    /// decades are few, and labels on every other decade where they are many.
    pub fn ticks(&self) -> Vec<(f64, bool)> {
        match *self {
            Scale::Linear { max, step } => {
                let count = (max / step).round() as usize;
                (0..=count).map(|i| (i as f64 * step, true)).collect()
            }
            Scale::Log { low, high } => {
                let (first, last) = (low.ceil() as i32, high.floor() as i32);
                let decades = (last - first).max(1);
                let every = if decades > 8 { 2 } else { 1 };
                let mut ticks = Vec::new();
                for k in first..=last {
                    ticks.push((10f64.powi(k), (k - first) % every == 0));
                    if decades <= 6 && k < last {
                        ticks.extend((2..10).map(|m| (f64::from(m) * 10f64.powi(k), false)));
                    }
                }
                ticks
            }
        }
    }
}

/// A tick label: `value` in `unit` ("s": seconds, with ms and µs below a second; "": a count,
/// with k, M, G above ten thousand). Log-scale labels are powers of 10.
pub fn tick_label(value: f64, unit: &str) -> String {
    if unit == "s" {
        return seconds_label(value);
    }
    count_label(value)
}

fn seconds_label(value: f64) -> String {
    let (scaled, suffix) = if value >= 1.0 || value == 0.0 {
        (value, "s")
    } else if value >= 1e-3 {
        (value * 1e3, "ms")
    } else if value >= 1e-6 {
        (value * 1e6, "µs")
    } else {
        (value * 1e9, "ns")
    };
    format!("{} {suffix}", trim_number(scaled))
}

fn count_label(value: f64) -> String {
    let (scaled, suffix) = if value >= 1e12 {
        (value / 1e12, "T")
    } else if value >= 1e9 {
        (value / 1e9, "G")
    } else if value >= 1e6 {
        (value / 1e6, "M")
    } else if value >= 1e4 {
        (value / 1e3, "k")
    } else {
        (value, "")
    };
    format!("{}{suffix}", trim_number(scaled))
}

/// A number with at most three decimals and no trailing zeros (`2.5`, `100`).
fn trim_number(value: f64) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// A count with thousands separators (`181,440`).
pub fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rectangle of the page holding one plot: its frame, its vertical axis and `bands` equal
/// slots along the horizontal axis (one per instance or per distance).
pub struct Panel {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub scale: Scale,
    pub bands: usize,
}

impl Panel {
    /// The horizontal centre of band `i`.
    pub fn band_x(&self, i: usize) -> f64 {
        self.x + (i as f64 + 0.5) * self.band_width()
    }

    pub fn band_width(&self) -> f64 {
        self.width / self.bands.max(1) as f64
    }

    /// The vertical position of `value`.
    pub fn value_y(&self, value: f64) -> f64 {
        self.y + self.height * (1.0 - self.scale.fraction(value))
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// The grid, the frame, the vertical axis's ticks in `unit` and its `label` (turned a
    /// quarter to the left of the tick labels).
    pub fn draw_frame(&self, svg: &mut Svg, unit: &str, label: &str) {
        let mut widest: f64 = 0.0;
        for (value, labelled) in self.scale.ticks() {
            let y = self.value_y(value);
            let grid = if labelled {
                "stroke=\"#d0d0d0\""
            } else {
                "stroke=\"#ececec\""
            };
            svg.line((self.x, y), (self.x + self.width, y), grid);
            if labelled {
                svg.line((self.x - 5.0, y), (self.x, y), "stroke=\"#444\"");
                let text = tick_label(value, unit);
                widest = widest.max(text_width(&text, 11.0));
                svg.text(
                    (self.x - 8.0, y + 4.0),
                    11.0,
                    "text-anchor=\"end\" class=\"tick\"",
                    &text,
                );
            }
        }
        svg.raw(&format!(
            "<rect class=\"frame\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#444\"/>\n",
            self.x, self.y, self.width, self.height
        ));
        let (x, y) = (self.x - widest - 20.0, self.y + self.height / 2.0);
        svg.text(
            (x, y),
            13.0,
            &format!("text-anchor=\"middle\" class=\"axis-label\" transform=\"rotate(-90 {x:.1} {y:.1})\""),
            label,
        );
    }

    /// Ticks under the bands `labels` names (band, text), the texts turned 45 degrees when
    /// `slanted`; then `label` under them. Returns the bottom of what was drawn.
    pub fn draw_bands_axis(
        &self,
        svg: &mut Svg,
        labels: &[(usize, String)],
        slanted: bool,
        label: Option<&str>,
    ) -> f64 {
        let mut lowest = self.bottom();
        for (band, text) in labels {
            let x = self.band_x(*band);
            svg.line(
                (x, self.bottom()),
                (x, self.bottom() + 5.0),
                "stroke=\"#444\"",
            );
            let y = self.bottom() + 16.0;
            if slanted {
                svg.text(
                    (x + 3.0, y - 4.0),
                    10.0,
                    &format!(
                        "text-anchor=\"end\" class=\"tick\" transform=\"rotate(-45 {:.1} {:.1})\"",
                        x + 3.0,
                        y - 4.0
                    ),
                    text,
                );
                lowest = lowest.max(y + text_width(text, 10.0) * 0.71);
            } else {
                svg.text((x, y), 11.0, "text-anchor=\"middle\" class=\"tick\"", text);
                lowest = lowest.max(y);
            }
        }
        if let Some(label) = label {
            lowest += 22.0;
            svg.text(
                (self.x + self.width / 2.0, lowest),
                13.0,
                "text-anchor=\"middle\" class=\"axis-label\"",
                label,
            );
        }
        lowest
    }
}

/// Which bands get a numbered tick: every `step`-th one (1, 2, 5, 10, 20, …), so that labels
/// of `chars` characters at 11 pixels stay apart on bands `band_width` wide.
pub fn band_step(band_width: f64, chars: usize) -> usize {
    let room = (chars as f64 * 11.0 * CHAR_WIDTH + 10.0).max(1.0);
    let mut step = 1;
    for power in [1, 10, 100, 1000, 10000] {
        for m in [1, 2, 5] {
            step = m * power;
            if step as f64 * band_width >= room {
                return step;
            }
        }
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_scales_end_on_a_round_tick() {
        let Scale::Linear { max, step } = Scale::linear(181_440.0 / 7.0) else {
            panic!("linear");
        };
        assert_eq!((max, step), (30_000.0, 10_000.0));
        let Scale::Linear { max, step } = Scale::linear(21_841_159.0) else {
            panic!("linear");
        };
        assert_eq!((max, step), (25e6, 5e6));
        let Scale::Linear { max, step } = Scale::linear(1.0) else {
            panic!("linear");
        };
        assert!((max - 1.0).abs() < 1e-9 && (step - 0.2).abs() < 1e-9);
    }

    #[test]
    fn log_scales_cover_whole_decades() {
        let scale = Scale::log([0.0042, 0.3, 0.0].into_iter());
        let Scale::Log { low, high } = scale else {
            panic!("log");
        };
        assert_eq!((low, high), (-3.0, 0.0));
        let labelled: Vec<f64> = scale
            .ticks()
            .into_iter()
            .filter(|t| t.1)
            .map(|t| t.0)
            .collect();
        assert_eq!(labelled.len(), 4);
        assert!((scale.fraction(0.01) - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn labels_read_as_people_write_them() {
        assert_eq!(tick_label(0.001, "s"), "1 ms");
        assert_eq!(tick_label(1e-5, "s"), "10 µs");
        assert_eq!(tick_label(10.0, "s"), "10 s");
        assert_eq!(tick_label(1e6, ""), "1M");
        assert_eq!(tick_label(25_000.0, ""), "25k");
        assert_eq!(tick_label(1000.0, ""), "1000");
        assert_eq!(grouped(239_500_800), "239,500,800");
        assert_eq!(grouped(12), "12");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(shorten("abcdef", 4), "abc…");
    }
}
