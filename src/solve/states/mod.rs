pub mod bfs;
pub mod minimum;
