#pragma once
// ImGui's imgui.ini, checked before ImGui reads it. ImGui trusts the file: a [Table] naming 2^31
// columns crashes it at start, a huge smaller count costs gigabytes. kcanvas owns the file, so it
// keeps only what it can vouch for: [Window] and [Table] sections with known lines and sane
// numbers, a table's columns within ImGui's 64. The rest is dropped, and the caller says so.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

constexpr std::size_t kMaxImGuiIniBytes = std::size_t(256) << 10; // kcanvas' own is well under 4 kB
constexpr int kMaxImGuiIniSections = 256;
constexpr int kMaxImGuiTableColumns = 64; // IMGUI_TABLE_MAX_COLUMNS in ImGui 1.86

struct CheckedIni {
    std::string text; // what ImGui may read
    std::vector<std::string>
        dropped; // what was left out and why ("[Table][0x1,2147483647]: 2147483647 columns, over 64")
};

CheckedIni check_imgui_ini(std::string_view text);

} // namespace kc
