//! Fixture library that reads a word list at compile time from a folder beside its sources.

pub mod words;
