#pragma once
// Timing statistics over a sliding window: last, mean, min, and a history for the plot.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <deque>
#include <limits>
#include <numeric>
#include <vector>

namespace kc {

// Wall-clock microseconds since t0: the CPU side of a stage's time.
inline double micros_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

class TimingStats {
public:
    explicit TimingStats(std::size_t window = 120) : window_(window) {}
    void add(double us) {
        samples_.push_back(us);
        if (samples_.size() > window_) samples_.pop_front();
    }
    void clear() { samples_.clear(); }
    bool empty() const { return samples_.empty(); }
    std::size_t count() const { return samples_.size(); }
    double last() const { return samples_.empty() ? 0.0 : samples_.back(); }
    double mean() const {
        return samples_.empty() ? 0.0 : std::accumulate(samples_.begin(), samples_.end(), 0.0) / samples_.size();
    }
    double min() const { return samples_.empty() ? 0.0 : *std::min_element(samples_.begin(), samples_.end()); }
    double median() const {
        if (samples_.empty()) return 0.0;
        std::vector<double> v(samples_.begin(), samples_.end());
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        return v[v.size() / 2];
    }
    // Oldest first, as floats for ImGui::PlotLines.
    std::vector<float> history() const { return {samples_.begin(), samples_.end()}; }

private:
    std::size_t window_;
    std::deque<double> samples_;
};

} // namespace kc
