// SPDX-License-Identifier: Apache-2.0
// Writes the fuzzers' seed corpora: every request of the conformance table (for the request
// parser and the connection), a few responses (for the client's parser) and the presets (for
// the spec loader), and HTTP/2 frame sequences (for the connection with --http2, whose harness
// puts the client preface before them). Each seed starts with the byte that sets its packet sizes
// (fuzzinput.h).
//
//   conformance_corpus SOURCE_DIR OUT_DIR
#include "conformancetable.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <cstdio>

using namespace servelab;

namespace {

bool write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// One HTTP/2 frame (RFC 9113 §4.1).
QByteArray frame(int type, int flags, int stream, const QByteArray &payload)
{
    QByteArray out;
    const auto length = payload.size();
    out += char(length >> 16) + QByteArray(1, char(length >> 8)) + QByteArray(1, char(length));
    out += char(type);
    out += char(flags);
    for (int shift : {24, 16, 8, 0})
        out += char((stream >> shift) & 0xff);
    return out + payload;
}

// A request's header block in HPACK (RFC 7541): GET from the static table (0x82), :scheme http
// (0x86), then :path and :authority as literals with incremental indexing of static names 4, 1.
QByteArray request(const QByteArray &path, bool head = false)
{
    QByteArray block(1, head ? char(0x42) : char(0x82));
    if (head)
        block += QByteArray(1, char(4)) + "HEAD";
    block += char(0x86);
    block += char(0x44) + QByteArray(1, char(path.size())) + path;
    block += char(0x41) + QByteArray(1, char(1)) + "x";
    return block;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: conformance_corpus SOURCE_DIR OUT_DIR\n");
        return 2;
    }
    const QDir source(QString::fromLocal8Bit(argv[1]));
    const QDir out(QString::fromLocal8Bit(argv[2]));
    QString error;
    const auto cases = conformance::load(
        source.filePath(QStringLiteral("tests/conformance/requests.table")), &error);
    if (cases.isEmpty()) {
        std::fprintf(stderr, "conformance_corpus: %s\n", qPrintable(error));
        return 1;
    }
    for (const QString &dir :
         {QStringLiteral("request"), QStringLiteral("response"), QStringLiteral("spec"),
          QStringLiteral("chunked"), QStringLiteral("h2")})
        if (!out.mkpath(dir)) {
            std::fprintf(stderr, "conformance_corpus: cannot make %s\n", qPrintable(dir));
            return 1;
        }
    int written = 0;
    for (int i = 0; i < cases.size(); ++i) {
        // Whole (60-byte packets) and in small pieces (1-byte packets first).
        for (char split : {char(60), char(0)}) {
            const QString name = QStringLiteral("request/%1-%2").arg(cases[i].name).arg(int(split));
            written += write(out.filePath(name), split + cases[i].bytes);
        }
        // The chunked bodies alone, for the decoder's differential fuzzer: its first byte picks
        // the body limit (1: the default), the second the packet sizes.
        const QByteArray &bytes = cases[i].bytes;
        const auto headEnd = bytes.indexOf("\r\n\r\n");
        if (headEnd > 0 && bytes.left(headEnd).toLower().contains("transfer-encoding: chunked"))
            written += write(out.filePath(QStringLiteral("chunked/%1").arg(cases[i].name)),
                             QByteArray("\x01\x05") + bytes.mid(headEnd + 4));
    }
    const QList<QByteArray> responses{
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HTTP/1.0 404 Not Found\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    };
    for (int i = 0; i < responses.size(); ++i)
        written +=
            write(out.filePath(QStringLiteral("response/seed-%1").arg(i)), char(60) + responses[i]);
    // HTTP/2 after the preface: SETTINGS, requests (END_STREAM|END_HEADERS), a window update, a
    // reset, PING, GOAWAY; what the h2 connection fuzzer starts from.
    const QByteArray settings = frame(4, 0, 0, {}) + frame(4, 1, 0, {});
    const QList<QByteArray> h2{
        settings + frame(1, 5, 1, request("/4K.bin")),
        settings + frame(1, 5, 1, request("/64K.bin")) + frame(8, 0, 0, "\x00\x01\x00\x00") +
            frame(8, 0, 1, "\x00\x01\x00\x00") + frame(1, 5, 3, request("/index.html", true)),
        settings + frame(1, 5, 1, request("/64K.bin")) + frame(3, 0, 1, "\x00\x00\x00\x08") +
            frame(6, 0, 0, "12345678") + frame(7, 0, 0, "\x00\x00\x00\x01\x00\x00\x00\x00"),
        settings + frame(1, 4, 1, request("/dir/")) + frame(9, 4, 1, {}) + frame(0, 1, 1, "body"),
    };
    for (int i = 0; i < h2.size(); ++i)
        for (char split : {char(60), char(0)})
            written += write(out.filePath(QStringLiteral("h2/seed-%1-%2").arg(i).arg(int(split))),
                             split + h2[i]);
    const QDir presets(source.filePath(QStringLiteral("resources/presets")));
    for (const QString &name : presets.entryList({QStringLiteral("*.json")})) {
        QFile preset(presets.filePath(name));
        if (preset.open(QIODevice::ReadOnly))
            written += write(out.filePath(QStringLiteral("spec/") + name), preset.readAll());
    }
    std::printf("%d seeds in %s\n", written, qPrintable(out.path()));
    return 0;
}
