#pragma once
// The block tuner driven as a person drives it, for the gui tests: press "Find the fastest block",
// wait for the sweep to finish, press "Apply block ...".
#include <fmt/format.h>

#include <optional>
#include <string>

#include "app/core/block_sweep.h"
#include "gpu/launch_config.h"
#include "tests/support/time_factor.h"

namespace kc::test {

// The panel line that says the sweep is over ("... on cpu: all 52 shapes tried").
inline std::string sweep_done_text() { return fmt::format("all {} shapes tried", sweep_candidates().size()); }

// Script lines: start the sweep, wait until it is done (one shape at most per frame, fewer when the
// machine is slow: `expect` waits a further 60 frames), apply the fastest.
inline std::string tune_and_apply_script() {
    return fmt::format("click Tune the block\nwheel -10 190,400\nclick Find the fastest block\nwait {}\nexpect "
                       "{}\nclick Apply block\nwait 2\n",
                       2 * sweep_candidates().size() * time_factor(), sweep_done_text());
}

// The block that "Apply block ..." applied, from the status line "message: applied block WxH (...".
inline std::optional<Dim3> applied_block(const std::string& output) {
    const std::string key = "message: applied block ";
    const std::size_t at = output.rfind(key);
    if (at == std::string::npos) return std::nullopt;
    const std::size_t from = at + key.size();
    return parse_dim3(output.substr(from, output.find(' ', from) - from));
}

} // namespace kc::test
