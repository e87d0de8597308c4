//! Synthetic ground truth for tests and benches, and `touchmove sim`.
//!
//! [`events`] turns a game (or a game with a staged breach, [`breaches`]) into the clean tracker
//! event stream a perfect tracker would write. [`scene`] scripts what hands do at a table;
//! [`timeline`] plays the script as motion; [`render`] draws each moment as an overhead camera
//! sees it (a real 3D projection through [`camera`]); [`video`] writes the video and its truth.

pub mod breaches;
pub mod camera;
pub mod events;
pub mod observe;
pub mod pgn;
pub mod render;
pub mod rng;
pub mod scene;
pub mod scenes;
pub mod timeline;
pub mod video;
