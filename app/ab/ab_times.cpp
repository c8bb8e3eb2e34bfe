#include "app/ab/ab_times.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace kc {

namespace {
// The q-quantile of sorted samples as TimingStats::median takes the median (sample n/2): a sample
// that ran, no interpolation, so q1 <= median <= q3 holds for any count.
double quantile(const std::vector<float>& sorted, double q) {
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(q * double(sorted.size())))];
}
} // namespace

SideTime side_time(const TimingStats& kernel) {
    std::vector<float> v = kernel.history();
    SideTime t;
    if (v.empty()) return t;
    std::sort(v.begin(), v.end());
    t.samples = static_cast<int>(v.size());
    t.median_us = kernel.median();
    t.q1_us = quantile(v, 0.25), t.q3_us = quantile(v, 0.75);
    return t;
}

AbRatio ab_ratio(const SideTime& a, const SideTime& b) {
    AbRatio r;
    if (a.samples == 0 || b.samples == 0 || a.median_us <= 0 || a.q1_us <= 0 || a.q3_us <= 0) return r;
    r.ratio = b.median_us / a.median_us;
    r.low = b.q1_us / a.q3_us, r.high = b.q3_us / a.q1_us;
    return r;
}

std::string side_time_text(const SideTime& t) {
    if (t.samples == 0) return "no frames timed yet";
    return fmt::format("{:.1f} us ({:.1f} to {:.1f}, {} frames)", t.median_us, t.q1_us, t.q3_us, t.samples);
}

std::string ratio_text(const AbRatio& r) {
    if (r.ratio <= 0) return "B/A: waiting for both sides' times";
    const char* verdict = r.within_noise() ? "within the noise" : r.ratio > 1 ? "B is slower" : "B is faster";
    return fmt::format("B/A = {:.2f}x ({:.2f}x to {:.2f}x): {}", r.ratio, r.low, r.high, verdict);
}

} // namespace kc
