// README.md's operation list against the registry and the parameter table: one entry per op,
// each naming the flag of every parameter the op reads, and no entry for an op that is gone.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gpu/param_limits.h"
#include "gpu/registry.h"

namespace kc {
namespace {

// The "## Operations" section's entries: "- `name` ..." and the indented lines after it.
std::map<std::string, std::string> readme_ops() {
    std::ifstream in(std::string(KC_ASSETS) + "/../README.md");
    EXPECT_TRUE(in) << "README.md not found";
    std::map<std::string, std::string> entries;
    bool inside = false;
    std::string current;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## ")) inside = line == "## Operations";
        if (!inside) continue;
        if (line.starts_with("- `")) {
            current = line.substr(3, line.find('`', 3) - 3);
            EXPECT_FALSE(entries.contains(current)) << current << " is listed twice";
            entries[current] = line;
        } else if (line.starts_with("  ") && !current.empty()) {
            entries[current] += " " + line;
        } else {
            current.clear();
        }
    }
    return entries;
}

TEST(Readme, OperationListMatchesTheRegistryAndTheParameterTable) {
    const auto entries = readme_ops();
    for (const OpInfo& op : op_registry()) {
        SCOPED_TRACE(std::string(op.name));
        const auto it = entries.find(std::string(op.name));
        ASSERT_NE(it, entries.end()) << "README.md's Operations list has no entry \"- `" << op.name << "`\"";
        for (const ParamSpec& s : kParams)
            if (uses_param(op, s.name)) {
                EXPECT_NE(it->second.find("`--" + std::string(s.name) + "`"), std::string::npos)
                    << "the entry does not name `--" << s.name << "`: " << it->second;
            }
    }
    for (const auto& [name, text] : entries)
        EXPECT_NE(find_op(name), nullptr) << "README lists an unknown op: " << text;
}

} // namespace
} // namespace kc
