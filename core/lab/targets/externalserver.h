// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace servelab::lab {

// A real server that ServeLab configures and launches on 127.0.0.1 and a free port: a template
// of ServerTemplate's table (nginx, lighttpd, Apache httpd (prefork), h2o, Tomcat), or any
// command line with {port} and {root} in it.
// It runs in its own process group, dies with ServeLab (PR_SET_PDEATHSIG on the leader), is
// waited for until it accepts connections, and is stopped group and all.
class ExternalServer
{
public:
    ExternalServer();
    ~ExternalServer();
    ExternalServer(const ExternalServer &) = delete;
    ExternalServer &operator=(const ExternalServer &) = delete;

    // The next start() serves https with this PEM pair, TLS 1.2 and 1.3, OpenSSL's default
    // ciphers, a session cache and tickets: what the built-in servers do with the same pair.
    void setTls(const QString &certificate, const QString &key)
    {
        m_tlsCertificate = certificate;
        m_tlsKey = key;
    }

    // The next start() serves HTTP/2 too: h2c with prior knowledge (nginx's port then speaks
    // h2c alone), h2 by ALPN over https. A template that cannot is refused with the reason.
    void setHttp2(bool on) { m_http2 = on; }

    // `target` is a template name or "command:<command line with {port} and {root}>".
    bool start(const QString &target, const QString &root, int workers, QString *error,
               int readyTimeoutMs = 10000);
    void stop();
    quint16 port() const { return m_port; }
    qint64 pid() const;

private:
    bool writeConfig(const QString &name, const QString &root, int workers, QString *program,
                     QStringList *arguments, QString *error);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QTemporaryDir> m_mirror; // apache as root: the files www-data may read

    static bool readableByOthers(const QString &root);
    bool mirrorForOthers(const QString &root, QString *served, QString *error);
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_tlsCertificate; // empty: plain http
    QString m_tlsKey;
    bool m_http2 = false;
};

} // namespace servelab::lab
