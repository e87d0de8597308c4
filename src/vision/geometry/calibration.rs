//! The calibration file: one camera set-up's board geometry as readable JSON, written by
//! `touchmove calibrate` and read by `replay`, `live` and `board` (`--calibration FILE`).
//!
//! ```json
//! {
//!   "about": "touchmove board calibration: …",
//!   "corners": [[142.3, 9.5], [504.7, 11.2], [506.3, 376.6], [137.8, 374.3]],
//!   "white": "right",
//!   "h1_light": true,
//!   "image_size": [640, 480],
//!   "source": "scholarsmate.avi",
//!   "white_from": "pieces",
//!   "clock": {"white": [590.0, 260.0], "black": [590.0, 200.0]}
//! }
//! ```
//! `corners` are the playing area's outer corners at a8, h8, h1, a1 in image pixels; `white`
//! the image edge White sits at; `white_from` how that edge was decided; `clock`, optional and
//! added by hand, where the clock's two buttons are (for a clock vision does not find).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::check_quad;
use crate::types::{BoardGeometry, ImageSide};
use crate::vision::VisionError;
use crate::vision::clock::ClockButtons;

const ABOUT: &str = "touchmove board calibration: corners are the playing area's outer corners at a8, h8, h1, a1 in image pixels; white is the image edge White sits at";

/// How White's edge was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhiteFrom {
    /// Light pieces at one end of the board, dark at the other.
    Pieces,
    /// Not shown by the pieces: the edge that puts a light square at White's right, nearer the
    /// bottom of the image (else the right).
    Assumed,
    /// From the order of corners given by hand.
    Corners,
    /// Given on the command line.
    Given,
}

/// A calibration as stored. Only `corners` and `white` are required when reading (a file
/// written by hand or by another tool may hold just those); `h1_light` is then taken as true
/// and fields this version does not know are ignored, so the format can grow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    #[serde(default)]
    about: Skip,
    pub corners: [[f64; 2]; 4],
    pub white: ImageSide,
    #[serde(default = "yes")]
    pub h1_light: bool,
    /// Width and height of the frames the corners refer to.
    #[serde(default)]
    pub image_size: Option<[u32; 2]>,
    /// The image, video or camera the board was found in.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub white_from: Option<WhiteFrom>,
    /// The clock's buttons in image pixels, given by hand for a clock the finder misses.
    #[serde(default)]
    pub clock: Option<ClockButtons>,
}

fn yes() -> bool {
    true
}

/// Writes the fixed explanation; anything is accepted back.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Skip;

impl Serialize for Skip {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(ABOUT)
    }
}

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Skip, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Skip)
    }
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

impl Calibration {
    pub fn new(g: &BoardGeometry, image_size: [u32; 2], source: impl Into<String>, white_from: WhiteFrom) -> Calibration {
        Calibration {
            about: Skip,
            corners: g.corners.map(|p| p.map(round1)),
            white: g.white,
            h1_light: g.h1_light,
            image_size: Some(image_size),
            source: Some(source.into()),
            white_from: Some(white_from),
            clock: None,
        }
    }

    pub fn geometry(&self) -> BoardGeometry {
        BoardGeometry { corners: self.corners, white: self.white, h1_light: self.h1_light }
    }

    /// Reads and checks a calibration file; the error names the file and says what is wrong
    /// in one line.
    pub fn load(path: &Path) -> Result<Calibration, VisionError> {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| VisionError::Invalid(format!("{name}: cannot read the calibration: {e}")))?;
        let cal: Calibration = serde_json::from_str(&text).map_err(|e| VisionError::Invalid(format!("{name}: not a touchmove calibration: {e}")))?;
        check_quad(&cal.corners).map_err(|e| VisionError::Invalid(format!("{name}: {e}")))?;
        Ok(cal)
    }

    /// The file's text: one field a line, a corner a pair.
    pub fn to_text(&self) -> String {
        let corners: Vec<String> = self.corners.iter().map(|p| format!("[{}, {}]", p[0], p[1])).collect();
        let mut lines = vec![
            format!("\"about\": {}", json(&ABOUT)),
            format!("\"corners\": [{}]", corners.join(", ")),
            format!("\"white\": {}", json(&self.white)),
            format!("\"h1_light\": {}", self.h1_light),
        ];
        if let Some([w, h]) = self.image_size {
            lines.push(format!("\"image_size\": [{w}, {h}]"));
        }
        if let Some(src) = &self.source {
            lines.push(format!("\"source\": {}", json(src)));
        }
        if let Some(from) = &self.white_from {
            lines.push(format!("\"white_from\": {}", json(from)));
        }
        if let Some(c) = &self.clock {
            lines.push(format!("\"clock\": {{\"white\": [{}, {}], \"black\": [{}, {}]}}", c.white[0], c.white[1], c.black[0], c.black[1]));
        }
        format!("{{\n  {}\n}}\n", lines.join(",\n  "))
    }

    /// Writes the file (and its folder).
    pub fn save(&self, path: &Path) -> Result<(), VisionError> {
        let name = path.display();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| VisionError::Invalid(format!("{}: cannot create the folder: {e}", dir.display())))?;
        }
        std::fs::write(path, self.to_text()).map_err(|e| VisionError::Invalid(format!("{name}: cannot write the calibration: {e}")))
    }
}

/// A value as compact JSON (strings quoted and escaped).
fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

/// The board geometry stored in a calibration file.
pub fn load_calibration(path: impl AsRef<Path>) -> Result<BoardGeometry, VisionError> {
    Calibration::load(path.as_ref()).map(|c| c.geometry())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_back_what_it_wrote() {
        let g = BoardGeometry { corners: [[10.0, 10.0], [110.0, 12.0], [108.0, 111.0], [9.0, 109.0]], white: ImageSide::Right, h1_light: true };
        let cal = Calibration::new(&g, [640, 480], "x.png", WhiteFrom::Pieces);
        let dir = std::env::temp_dir().join(format!("touchmove-cal-{}", std::process::id()));
        let path = dir.join("sub/x.json");
        cal.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"about\"") && text.contains("\"white\": \"right\""), "{text}");
        assert!(text.contains("\"corners\": [[10, 10], [110, 12], [108, 111], [9, 109]],"), "{text}");
        assert_eq!(Calibration::load(&path).unwrap(), cal);
        assert_eq!(load_calibration(&path).unwrap(), g);
        // The least a file may hold: the contract's line.
        std::fs::write(&path, r#"{"corners":[[10,10],[110,12],[108,111],[9,109]],"white":"right","note":"by hand"}"#).unwrap();
        assert_eq!(load_calibration(&path).unwrap(), g);
        assert_eq!(Calibration::load(&path).unwrap().clock, None);
        // The clock's buttons, added by hand, are kept and written back.
        std::fs::write(&path, r#"{"corners":[[10,10],[110,12],[108,111],[9,109]],"white":"right","clock":{"white":[150,70],"black":[150,40]}}"#).unwrap();
        let with_clock = Calibration::load(&path).unwrap();
        assert_eq!(with_clock.clock, Some(ClockButtons { white: [150.0, 70.0], black: [150.0, 40.0] }));
        with_clock.save(&path).unwrap();
        assert_eq!(Calibration::load(&path).unwrap(), with_clock);
        // A clock without both buttons is refused, naming the file.
        std::fs::write(&path, r#"{"corners":[[10,10],[110,12],[108,111],[9,109]],"white":"right","clock":{"white":[150,70]}}"#).unwrap();
        let e = Calibration::load(&path).unwrap_err().to_string();
        assert!(e.contains("x.json") && e.contains("black"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
