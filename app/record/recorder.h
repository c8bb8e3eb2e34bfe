#pragma once
// Runs a recording: renders each frame of a RecordPlan (through a function: GL and overlays, or
// the CPU emulator alone) and hands it to the encoder, a slice of frames at a time, so that the
// window stays responsive while it records; `kcanvas record` runs it to the end. Cancelling, or
// a failure, drops the encoder, which removes everything it wrote.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/record/frame_encoder.h"
#include "app/record/recording.h"

namespace kc {

class Recorder {
public:
    using Render = std::function<std::optional<std::string>(const RecordFrame&, std::vector<Pixel>&)>;
    Recorder(RecordPlan plan, std::unique_ptr<FrameEncoder> encoder, Render render);

    // Renders and encodes frames for about `budget` (at least one); false once done or failed.
    bool step(std::chrono::milliseconds budget);
    void cancel();
    bool running() const { return encoder_ != nullptr; }
    bool succeeded() const { return done_ && !error_; }
    const std::optional<std::string>& error() const { return error_; }
    bool output_failed() const { return output_failed_; } // the error is the encoder's: the file was not written

    int work_done() const { return done_work_; } // frames rendered, palette samples included
    int work_total() const { return int(samples_.size()) + plan_.frames; }
    int frames_encoded() const { return next_frame_; }
    const RecordPlan& plan() const { return plan_; }
    double elapsed_seconds() const { return busy_seconds_; }
    double eta_seconds() const; // at the pace so far
    // "37 / 300 frames, 12.1 frames/s, 21 s left" (palette sampling said so).
    std::string progress_text() const;

private:
    std::optional<std::string> one_unit();
    RecordPlan plan_;
    std::unique_ptr<FrameEncoder> encoder_;
    Render render_;
    std::vector<int> samples_;
    std::vector<Pixel> pixels_;
    int done_work_ = 0, next_frame_ = 0;
    bool done_ = false, output_failed_ = false;
    std::optional<std::string> error_;
    double busy_seconds_ = 0;
};

} // namespace kc
