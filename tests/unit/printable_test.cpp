// printable(): control characters and broken UTF-8 written out as \xNN, everything else kept.
#include "app/scene/printable.hpp"

#include <gtest/gtest.h>

#include <string>

namespace particles {
namespace {

TEST(Printable, ControlCharactersAreEscapedByteForByte) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(printable("tab\there\nnew\rline\x7f"), "tab\\x09here\\x0anew\\x0dline\\x7f");
  EXPECT_EQ(printable("\xc2\x9b"
                      "2J"),
            "\\xc2\\x9b2J");  // U+009B, CSI in C1
}

TEST(Printable, TextAndUtf8AreKeptAndEscapingTwiceChangesNothing) {
  const std::string text = "Galaxie \xc3\xa0 deux bras \xe2\x80\x94 \xf0\x9f\x8c\x8c C:\\dir";
  EXPECT_EQ(printable(text), text);
  const std::string once = printable("\x1b]0;title\x07");
  EXPECT_EQ(printable(once), once);
}

TEST(Printable, BrokenUtf8IsEscaped) {
  EXPECT_EQ(printable("\x9b"), "\\x9b");                    // a lone continuation byte
  EXPECT_EQ(printable("a\xe2\x80"), "a\\xe2\\x80");         // a truncated sequence
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

}  // namespace
}  // namespace particles
