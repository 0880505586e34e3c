//! SVG diagrams of positions as composers print them (`fairysolve show --svg`): every
//! geometry drawn physically (Earthquake halves displaced, void cells blank), the two
//! boards of Underworld and Looking-Glass side by side and labelled, ticking men with a
//! badge of their moves left, the Taxi cash in a caption. The figures are the program's
//! own paths: nothing is fetched when a diagram is drawn or shown.
//!
//! - `scene`: what is shown (boards, men, timers, captions), from a problem;
//! - `layout`: where each part goes, in whole pixels (tests find the squares by it);
//! - `document`: writing the SVG text;
//! - `figures`: the six piece figures.

pub mod document;
pub mod figures;
pub mod layout;
pub mod scene;

pub use document::{escape, render};
pub use layout::{layout, BoardFrame, Layout};
pub use scene::{BoardScene, Scene};
