//! The clause ids of `RULES.md`, as a closed set: an `article` field can only ever hold one of
//! them, so a typo in the engine is a compile error rather than a wrong line in an arbiter's log.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! articles {
    ($($name:ident => $id:literal),+ $(,)?) => {
        /// One clause of the FIDE Laws as numbered in `RULES.md`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Article { $($name),+ }

        impl Article {
            /// Every clause, in the order of `RULES.md`.
            pub const ALL: &'static [Article] = &[$(Article::$name),+];

            /// The canonical id, e.g. `"4.3.1"`.
            pub fn id(self) -> &'static str {
                match self { $(Article::$name => $id),+ }
            }
        }

        impl FromStr for Article {
            type Err = UnknownArticle;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s { $($id => Ok(Article::$name),)+ _ => Err(UnknownArticle(s.to_owned())) }
            }
        }
    };
}

articles! {
    A3_8_2 => "3.8.2", A3_8_2_1 => "3.8.2.1", A3_8_2_2 => "3.8.2.2",
    A4_1 => "4.1", A4_2_1 => "4.2.1", A4_2_2 => "4.2.2",
    A4_3_1 => "4.3.1", A4_3_2 => "4.3.2", A4_3_3 => "4.3.3",
    A4_4_1 => "4.4.1", A4_4_2 => "4.4.2", A4_4_3 => "4.4.3", A4_4_4 => "4.4.4",
    A4_5 => "4.5", A4_6_1 => "4.6.1", A4_6_2 => "4.6.2", A4_6_3 => "4.6.3",
    A4_7 => "4.7", A4_7_1 => "4.7.1", A4_7_2 => "4.7.2", A4_7_3 => "4.7.3",
    A4_8 => "4.8", A4_9 => "4.9",
    A7_1 => "7.1", A7_2_1 => "7.2.1", A7_2_2 => "7.2.2", A7_3 => "7.3",
    A7_4_1 => "7.4.1", A7_4_2 => "7.4.2", A7_4_3 => "7.4.3",
    A7_5_1 => "7.5.1", A7_5_2 => "7.5.2", A7_5_3 => "7.5.3", A7_5_4 => "7.5.4", A7_5_5 => "7.5.5",
    A7_6 => "7.6",
}

impl Article {
    /// Breaches of 4.1–4.7 can be claimed by the opponent until he touches a piece to move (4.8).
    pub fn claimable_until_touch(self) -> bool {
        let id = self.id();
        id.starts_with("4.") && !matches!(self, Article::A4_8 | Article::A4_9)
    }
}

/// An `article` string that is not an id of `RULES.md`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a clause id of RULES.md")]
pub struct UnknownArticle(pub String);

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Article {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Article {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for a in Article::ALL {
            assert_eq!(a.id().parse::<Article>().unwrap(), *a);
            assert!(seen.insert(a.id()));
        }
        assert_eq!(Article::ALL.len(), 36);
        assert!("4.3.4".parse::<Article>().is_err());
    }

    #[test]
    fn claimable_articles_are_4_1_to_4_7() {
        assert!(Article::A4_1.claimable_until_touch());
        assert!(Article::A4_7_2.claimable_until_touch());
        assert!(!Article::A4_8.claimable_until_touch());
        assert!(!Article::A7_5_1.claimable_until_touch());
    }
}
