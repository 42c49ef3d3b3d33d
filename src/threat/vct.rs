//! VCT: placeholder until the proof-number search lands.
