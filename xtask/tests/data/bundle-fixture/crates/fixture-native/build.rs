//! Stands for a build script that builds and links native code (here it does nothing more than
//! declare the library in `links`).

fn main() {}
