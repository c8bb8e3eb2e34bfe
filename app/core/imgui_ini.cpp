#include "app/core/imgui_ini.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "render/io/quoted.h"

namespace kc {

namespace {

constexpr std::size_t kMaxLine = 1024;
constexpr long kMaxCoordinate = 100000; // window positions and sizes, column widths: points

std::optional<long> whole(std::string_view s, long lo, long hi) {
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

bool real_in(std::string_view s, double lo, double hi) {
    const std::string text(s);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size() && std::isfinite(v) && v >= lo && v <= hi;
}

// "x,y" with both within ±kMaxCoordinate.
bool pair_in(std::string_view s) {
    const auto comma = s.find(',');
    return comma != std::string_view::npos && whole(s.substr(0, comma), -kMaxCoordinate, kMaxCoordinate) &&
           whole(s.substr(comma + 1), -kMaxCoordinate, kMaxCoordinate);
}

bool window_line_ok(std::string_view line) {
    if (line.starts_with("Pos=")) return pair_in(line.substr(4));
    if (line.starts_with("Size=")) return pair_in(line.substr(5));
    if (line.starts_with("Collapsed=")) return whole(line.substr(10), 0, 1).has_value();
    return false;
}

// "Column N  UserID=0x... Width=.. Weight=.. Visible=.. Order=.. Sort=..v": N and Order below the
// table's column count, the rest sane.
bool column_line_ok(std::string_view line, int columns) {
    line.remove_prefix(7); // "Column "
    std::size_t at = line.find(' ');
    if (!whole(line.substr(0, at), 0, columns - 1)) return false;
    while (at != std::string_view::npos) {
        const std::size_t start = line.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        at = line.find(' ', start);
        const std::string_view field = line.substr(start, at == std::string_view::npos ? at : at - start);
        const std::size_t eq = field.find('=');
        if (eq == std::string_view::npos) return false;
        const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
        bool ok = false;
        if (key == "UserID")
            ok = value.starts_with("0x") && value.size() <= 10;
        else if (key == "Width")
            ok = whole(value, 0, kMaxCoordinate).has_value();
        else if (key == "Weight")
            ok = real_in(value, 0, 1000);
        else if (key == "Visible")
            ok = whole(value, 0, 1).has_value();
        else if (key == "Order")
            ok = whole(value, 0, columns - 1).has_value();
        else if (key == "Sort")
            ok = !value.empty() && (value.back() == 'v' || value.back() == '^') &&
                 whole(value.substr(0, value.size() - 1), 0, columns - 1);
        if (!ok) return false;
    }
    return true;
}

bool table_line_ok(std::string_view line, int columns) {
    if (line.starts_with("RefScale=")) return real_in(line.substr(9), 0.01, 100);
    if (line.starts_with("Column ")) return column_line_ok(line, columns);
    return false;
}

// A table's section name "0xXXXXXXXX,N": its column count, or why it is not trusted.
std::optional<std::string> table_name_error(std::string_view name, int& columns) {
    const auto comma = name.find(',');
    if (!name.starts_with("0x") || comma == std::string_view::npos || comma > 10)
        return std::string("not 0xID,COLUMNS");
    const auto count = whole(name.substr(comma + 1), 1, 1L << 62);
    if (!count) return std::string("its column count is not a whole number from 1");
    if (*count > kMaxImGuiTableColumns) return fmt::format("{} columns, over {}", *count, kMaxImGuiTableColumns);
    columns = static_cast<int>(*count);
    return std::nullopt;
}

// One section, as the header parsed it.
struct Section {
    enum Kind { Window, Table, Dropped } kind = Dropped;
    int columns = 0;
};

Section open_section(std::string_view header, int count, std::vector<std::string>& dropped) {
    const std::string shown = quoted(header, 60);
    if (count >= kMaxImGuiIniSections) {
        if (count == kMaxImGuiIniSections) dropped.push_back(fmt::format("sections past the first {}", count));
        return {};
    }
    if (header.starts_with("[Window][") && header.ends_with("]")) return {Section::Window};
    if (header.starts_with("[Table][") && header.ends_with("]")) {
        Section s{Section::Table};
        if (auto e = table_name_error(header.substr(8, header.size() - 9), s.columns)) {
            dropped.push_back(fmt::format("{}: {}", shown, *e));
            return {};
        }
        return s;
    }
    dropped.push_back(fmt::format("{}: not a [Window] or [Table] section", shown));
    return {};
}

} // namespace

CheckedIni check_imgui_ini(std::string_view text) {
    CheckedIni out;
    if (text.size() > kMaxImGuiIniBytes) {
        out.dropped.push_back(fmt::format("all of it: {} bytes, over {}", text.size(), kMaxImGuiIniBytes));
        return out;
    }
    Section section;
    int sections = 0, bad_lines = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line.empty()) continue;
        const bool ok_text = line.size() <= kMaxLine && escaped(line, kMaxLine) == line;
        if (line.front() == '[') {
            section = ok_text ? open_section(line, sections++, out.dropped) : Section{};
            if (!ok_text) out.dropped.push_back(fmt::format("{}: a header too long or not text", quoted(line, 60)));
            if (section.kind != Section::Dropped) out.text.append(line).append("\n");
            continue;
        }
        if (section.kind == Section::Dropped) continue;
        const bool ok =
            ok_text && (section.kind == Section::Window ? window_line_ok(line) : table_line_ok(line, section.columns));
        if (ok)
            out.text.append(line).append("\n");
        else
            bad_lines += 1;
    }
    if (bad_lines > 0)
        out.dropped.push_back(
            fmt::format("{} line{} with values out of range or unknown", bad_lines, bad_lines == 1 ? "" : "s"));
    return out;
}

} // namespace kc
