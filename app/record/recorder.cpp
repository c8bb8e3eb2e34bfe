#include "app/record/recorder.h"

#include <fmt/format.h>

namespace kc {

Recorder::Recorder(RecordPlan plan, std::unique_ptr<FrameEncoder> encoder, Render render)
    : plan_(std::move(plan)), encoder_(std::move(encoder)), render_(std::move(render)) {
    if (encoder_) samples_ = encoder_->frames_to_sample();
}

// One frame sampled (for a GIF's palette) or encoded; the finish after the last.
std::optional<std::string> Recorder::one_unit() {
    if (done_work_ < int(samples_.size())) {
        if (auto e = render_(plan_frame(plan_, samples_[done_work_]), pixels_)) return e;
        encoder_->sample(pixels_);
    } else {
        if (auto e = render_(plan_frame(plan_, next_frame_), pixels_)) return e;
        if (auto e = encoder_->add(pixels_)) return output_failed_ = true, e;
        ++next_frame_;
    }
    ++done_work_;
    if (next_frame_ == plan_.frames) {
        auto e = encoder_->finish();
        encoder_.reset();
        done_ = true;
        output_failed_ = e.has_value();
        return e;
    }
    return std::nullopt;
}

bool Recorder::step(std::chrono::milliseconds budget) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    while (encoder_) {
        try {
            if (auto e = one_unit()) error_ = e;
        } catch (const std::exception& e) {
            error_ = e.what();
        }
        if (error_) {
            encoder_.reset(); // removes what it wrote
            done_ = true;
        }
        if (Clock::now() - t0 >= budget) break;
    }
    busy_seconds_ += std::chrono::duration<double>(Clock::now() - t0).count();
    return encoder_ != nullptr;
}

void Recorder::cancel() {
    encoder_.reset();
    done_ = true;
    if (!error_) error_ = "cancelled";
}

double Recorder::eta_seconds() const {
    if (done_work_ == 0) return 0;
    return busy_seconds_ / done_work_ * (work_total() - done_work_);
}

std::string Recorder::progress_text() const {
    const int eta = int(eta_seconds() + 0.5);
    const std::string left = done_work_ == 0 ? std::string("...") : fmt::format("{}:{:02d} left", eta / 60, eta % 60);
    if (done_work_ < int(samples_.size()))
        return fmt::format("choosing the palette: {} / {} sample frames, {}", done_work_, samples_.size(), left);
    const double rate = busy_seconds_ > 0 ? done_work_ / busy_seconds_ : 0;
    return fmt::format("{} / {} frames, {:.1f} frames/s, {}", next_frame_, plan_.frames, rate, left);
}

} // namespace kc
