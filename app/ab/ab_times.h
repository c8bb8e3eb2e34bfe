#pragma once
// Each side's kernel time as the split shows it: the median of the last frames and their spread
// (the middle half of them, first to third quartile), and the ratio B/A with the range the two
// spreads allow, so "1.03x" is read beside "0.91x to 1.17x: within the noise".
#include <string>

#include "gpu/timing.h"

namespace kc {

struct SideTime {
    int samples = 0;
    double median_us = 0, q1_us = 0, q3_us = 0; // the middle half of the samples lies from q1 to q3
};
SideTime side_time(const TimingStats& kernel);

struct AbRatio {
    double ratio = 0;         // B's median over A's; 0: a side has no samples yet
    double low = 0, high = 0; // B's q1 over A's q3, and B's q3 over A's q1
    bool within_noise() const { return ratio > 0 && low <= 1.0 && 1.0 <= high; }
};
AbRatio ab_ratio(const SideTime& a, const SideTime& b);

// "12.3 us (11.9 to 12.8, 60 frames)".
std::string side_time_text(const SideTime& t);
// "B/A = 1.27x (1.20x to 1.35x)", then ": within the noise", "B is slower" or "B is faster".
std::string ratio_text(const AbRatio& r);

} // namespace kc
