#pragma once
// `kcanvas record ...`: a recording made headless (GIF, MP4, WebM or a PNG sequence), with a
// progress bar and an ETA on a terminal's stderr. Returns the process exit code.
namespace kc {
int run_record_command(int argc, char** argv); // argv[1] is "record"
} // namespace kc
