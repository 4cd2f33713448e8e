// SPDX-License-Identifier: Apache-2.0
#include "http/uripath.h"

#include <QTest>

#include <string_view>

using servelab::http::normalizedPath;

namespace {

void accepted(const char *name, const QByteArray &target, const QByteArray &path)
{
    QTest::newRow(name) << target << true << path;
}

void refused(const char *name, const QByteArray &target)
{
    QTest::newRow(name) << target << false << QByteArray();
}

} // namespace

class TestUriPath : public QObject
{
    Q_OBJECT

private slots:
    void normalizedPath_data();
    void normalizedPath();
    void decodesExactlyOnce();
};

void TestUriPath::normalizedPath_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("expected");

    // Plain paths; the result is relative to the root, which itself is "".
    accepted("root", "/", "");
    accepted("two segments", "/a/b", "a/b");
    accepted("file with extension", "/dir/index.html", "dir/index.html");
    accepted("trailing slash", "/dir/", "dir");
    accepted("empty segments", "//a//b", "a/b");
    accepted("only slashes", "///", "");

    // Dot segments (RFC 3986 §5.2.4)
    accepted("dot segment", "/./a", "a");
    accepted("trailing dot", "/a/.", "a");
    accepted("dot dot inside", "/a/../b", "b");
    accepted("dot dot back to the root", "/a/..", "");
    accepted("dot dot after dot", "/a/./../b/./c", "b/c");
    accepted("three dots is a name", "/.../x", ".../x");
    accepted("dot-prefixed name", "/.hidden", ".hidden");
    accepted("dots inside a name", "/a..b", "a..b");
    refused("dot dot at the root", "/..");
    refused("dot dot slash at the root", "/../");
    refused("dot dot climbs above", "/a/../../b");
    refused("dot dot to a sibling of the root", "/../root/x");

    // Percent-encoding: decoded once, then dot segments removed.
    accepted("%41 is A", "/%41", "A");
    accepted("lower-case hex", "/%6a%6B", "jk");
    accepted("encoded space", "/a%20b", "a b");
    accepted("encoded dot is a dot segment", "/a/%2e/b", "a/b");
    accepted("encoded dot dot inside", "/a/%2e%2e/b", "b");
    refused("%2e%2e at the root", "/%2e%2e/x");
    refused("%2E%2E upper case at the root", "/%2E%2E/x");
    refused(".%2e at the root", "/.%2e/x");
    refused("..%2f encoded slash", "/..%2f");
    refused("%2F encoded slash", "/a%2Fb");
    refused("%2f encoded slash", "/a%2fb");
    accepted("%252e%252e is a literal name", "/%252e%252e/", "%2e%2e");
    accepted("%25 is a percent", "/100%25", "100%");

    // Bytes no file name may hold
    refused("%00", "/%00");
    refused("%00 after a name", "/a%00.html");
    refused("%0d", "/a%0d");
    refused("%0a", "/a%0a");
    refused("%1f", "/a%1f");
    refused("%7f", "/a%7f");
    refused("raw control byte", "/a\x01"
                                "b");
    refused("raw DEL", "/a\x7f");

    // Bad escapes
    refused("%zz", "/%zz");
    refused("%4 truncated", "/%4");
    refused("% alone", "/%");
    refused("%4 before a slash", "/%4/a");
    refused("%g1", "/%g1");

    // Query and fragment are not part of the path.
    accepted("query stripped", "/a?x=1", "a");
    accepted("fragment stripped", "/a#f", "a");
    accepted("query holding a slash and dots", "/a?x=/../../etc", "a");
    accepted("root with query", "/?x", "");
    accepted("bad escape in query is ignored", "/a?%zz", "a");

    // Not a path at all
    refused("empty", "");
    refused("no leading slash", "a/b");
    refused("query only", "?x=1");
    refused("asterisk", "*");
}

void TestUriPath::normalizedPath()
{
    QFETCH(QByteArray, target);
    QFETCH(bool, ok);
    QFETCH(QByteArray, expected);

    const auto result =
        servelab::http::normalizedPath(std::string_view(target.constData(), target.size()));
    QCOMPARE(result.has_value(), ok);
    if (ok)
        QCOMPARE(QByteArray::fromStdString(*result), expected);
}

// One pass decodes one level: "%252e" is the name "%2e", never ".", and "%2541" is "%41", never
// "A" — a second decoding pass is the classic way out of the root.
void TestUriPath::decodesExactlyOnce()
{
    const auto once = servelab::http::normalizedPath("/%252e%252e/%2541");
    QVERIFY(once.has_value());
    QCOMPARE(*once, std::string("%2e%2e/%41"));
}

QTEST_GUILESS_MAIN(TestUriPath)
#include "tst_uripath.moc"
