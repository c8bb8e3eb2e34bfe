#pragma once
// How much slower than a plain release build the code under test runs: KC_TEST_TIME_FACTOR (default
// 1; scripts/sanitize.sh sets it for ASan+UBSan at -O1). Time limits and frame budgets of tests that
// guard against hangs scale by it; what they check does not change.
#include <cstdlib>
#include <string>

namespace kc::test {

inline int time_factor() {
    const char* value = std::getenv("KC_TEST_TIME_FACTOR");
    const int f = value ? std::atoi(value) : 1;
    return f >= 1 && f <= 100 ? f : 1;
}

} // namespace kc::test
