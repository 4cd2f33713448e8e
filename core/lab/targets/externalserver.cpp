// SPDX-License-Identifier: Apache-2.0
#include "externalserver.h"

#include "lab/spec/targetkind.h"
#include "os/uniquefd.h"

#include "lab/results/resultexport.h"
#include "lab/spec/servertemplate.h"
#include "server/listener.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <array>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace servelab::lab {

namespace {

constexpr int stopTimeoutMs = 5000;

bool accepts(quint16 port)
{
    const os::UniqueFd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::connect(fd.get(), reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
}

} // namespace

// Whether someone else (Apache's www-data) can enter every folder down to `root` and list it.
bool ExternalServer::readableByOthers(const QString &root)
{
    for (QFileInfo dir(root); !dir.isRoot(); dir = QFileInfo(dir.absolutePath())) {
        const auto mode = dir.permissions();
        if (!(mode & QFileDevice::ExeOther) || !(mode & QFileDevice::ReadOther))
            return false;
    }
    return true;
}

// As root, Apache's children become www-data (Apache refuses to serve as root), which cannot
// enter a document root under /root. Rather than open that path to everyone, the files are
// served from a folder of their own that others may enter: hard links to them (a copy where a
// link cannot be made, or where the file itself is not readable by others), gone at stop().
bool ExternalServer::mirrorForOthers(const QString &root, QString *served, QString *error)
{
    m_mirror = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                               QStringLiteral("/servelab-docroot-XXXXXX"));
    constexpr auto folderMode = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                QFile::ExeOther;
    if (!m_mirror->isValid() || !QFile::setPermissions(m_mirror->path(), folderMode)) {
        *error = QStringLiteral("cannot make a folder others can read for apache's workers in %1")
                     .arg(QDir::tempPath());
        return false;
    }
    const QDir from(root);
    QDirIterator files(root, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QFileInfo file(files.next());
        const QString to = QDir(m_mirror->path()).filePath(from.relativeFilePath(file.filePath()));
        const bool ok =
            file.isDir() ? QDir().mkpath(to) && QFile::setPermissions(to, folderMode)
            : (file.permissions() & QFileDevice::ReadOther)
                ? ::link(QFile::encodeName(file.filePath()).constData(),
                         QFile::encodeName(to).constData()) == 0 ||
                      QFile::copy(file.filePath(), to)
                : QFile::copy(file.filePath(), to) &&
                      QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner |
                                                    QFile::ReadOther | QFile::ReadGroup);
        if (!ok) {
            *error = QStringLiteral("cannot give apache's workers (www-data) %1 to read: put the "
                                    "document_root under /srv or /tmp")
                         .arg(file.filePath());
            return false;
        }
    }
    *served = m_mirror->path();
    return true;
}

ExternalServer::ExternalServer() = default;

ExternalServer::~ExternalServer()
{
    stop();
}

qint64 ExternalServer::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool ExternalServer::writeConfig(const QString &name, const QString &root, int workers,
                                 QString *program, QStringList *arguments, QString *error)
{
    const QString dir = m_dir->path();
    const QString port = QString::number(m_port);
    const QString config = QDir(dir).filePath(name + QStringLiteral(".conf"));
    QString text;
    if (!ServerTemplate::names().contains(name)) {
        *error = QStringLiteral("no template for '%1' (known: %2, or command:...)")
                     .arg(name, ServerTemplate::names().join(QStringLiteral(", ")));
        return false;
    }
    if (const QString no = ServerTemplate::noHttp2(name); m_http2 && !no.isEmpty()) {
        *error = QStringLiteral("%1 speaks no HTTP/2 here: %2").arg(name, no);
        return false;
    }
    *program = ServerTemplate::binaryFor(name);
    if (program->isEmpty()) {
        *error = ServerTemplate::notInstalled(name);
        return false;
    }
    const bool tls = !m_tlsCertificate.isEmpty();
    if (tls && !ServerTemplate::takesTls(name)) {
        *error =
            QStringLiteral("%1 has no https template (%2 do)").arg(name, ServerTemplate::withTls());
        return false;
    }
    if (name == u"nginx") {
        // As root, workers would switch to nobody and could not read a root-owned document root.
        // Over https nginx's sendfile stays off the TLS path (no kernel TLS asked for): its
        // records are written by OpenSSL from nginx's buffers, as epoll+copy over https does.
        const QString https =
            tls ? QStringLiteral(" ssl; ssl_certificate %1; ssl_certificate_key %2;\n"
                                 "    ssl_protocols TLSv1.2 TLSv1.3;\n"
                                 "    ssl_session_cache shared:servelab:10m")
                      .arg(m_tlsCertificate, m_tlsKey)
                : QString();
        text =
            QStringLiteral("%1worker_processes %2;\ndaemon off;\npid %3/nginx.pid;\n"
                           "error_log %3/error.log;\nevents { worker_connections 4096; }\n"
                           "http {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n"
                           "  client_body_temp_path %3;\n  proxy_temp_path %3;\n"
                           "  fastcgi_temp_path %3;\n  uwsgi_temp_path %3;\n  scgi_temp_path %3;\n"
                           "  server { listen 127.0.0.1:%4%6; root %5; }\n}\n")
                .arg(geteuid() == 0 ? QStringLiteral("user root;\n") : QString())
                .arg(workers)
                .arg(dir, port, root, (m_http2 ? QStringLiteral(" http2") : QString()) + https);
        *arguments = {QStringLiteral("-c"), config, QStringLiteral("-p"), dir};
    } else if (name == u"lighttpd") {
        text = QStringLiteral("server.document-root = \"%1\"\nserver.port = %2\n"
                              "server.bind = \"127.0.0.1\"\nserver.errorlog = \"%3/error.log\"\n"
                              "server.max-worker = %4\nserver.network-backend = \"sendfile\"\n"
                              "index-file.names = ( \"index.html\" )\n"
                              "mimetype.assign = ( \".html\" => \"text/html\", "
                              "\"\" => \"application/octet-stream\" )\n")
                   .arg(root, port, dir)
                   .arg(workers > 1 ? workers : 0);
        if (m_http2) // h2 by ALPN over https, h2c with prior knowledge beside HTTP/1.1
            text += QStringLiteral("server.feature-flags += ( \"server.h2proto\" => \"enable\", "
                                   "\"server.h2c\" => \"enable\" )\n");
        if (tls) // Debian's lighttpd-mod-openssl
            text +=
                QStringLiteral("server.modules += ( \"mod_openssl\" )\nssl.engine = \"enable\"\n"
                               "ssl.pemfile = \"%1\"\nssl.privkey = \"%2\"\n"
                               "ssl.openssl.ssl-conf-cmd = ( \"MinProtocol\" => \"TLSv1.2\" )\n")
                    .arg(m_tlsCertificate, m_tlsKey);
        *arguments = {QStringLiteral("-D"), QStringLiteral("-f"), config};
    } else if (name == u"apache") {
        // Prefork, as the seeds ran it; modules from Debian's layout.
        // As root its children must run as someone else (Apache refuses root): www-data, which
        // must be able to read the document root.
        const QString modules = QStringLiteral("/usr/lib/apache2/modules");
        text = QStringLiteral("ServerRoot %1\nPidFile %1/httpd.pid\nErrorLog %1/error.log\n"
                              "TypesConfig %6\n%7"
                              "Listen 127.0.0.1:%2\nServerName 127.0.0.1\n"
                              "LoadModule mpm_prefork_module %3/mod_mpm_prefork.so\n"
                              "LoadModule authz_core_module %3/mod_authz_core.so\n"
                              "LoadModule mime_module %3/mod_mime.so\n"
                              "LoadModule dir_module %3/mod_dir.so\n"
                              "StartServers %4\nMaxRequestWorkers 150\nEnableSendfile On\n"
                              "DocumentRoot \"%5\"\n<Directory \"%5\">\n  Require all granted\n"
                              "</Directory>\n")
                   .arg(dir, port, modules)
                   .arg(workers)
                   .arg(root,
                        QFileInfo::exists(QStringLiteral("/etc/mime.types"))
                            ? QStringLiteral("/etc/mime.types")
                            : QStringLiteral("/dev/null"),
                        geteuid() == 0 ? QStringLiteral("User www-data\nGroup www-data\n")
                                       : QString());
        if (tls)
            text += QStringLiteral("LoadModule socache_shmcb_module %1/mod_socache_shmcb.so\n"
                                   "LoadModule ssl_module %1/mod_ssl.so\n"
                                   "SSLSessionCache shmcb:%2/ssl_scache(512000)\n"
                                   "SSLEngine on\nSSLProtocol -all +TLSv1.2 +TLSv1.3\n"
                                   "SSLCertificateFile %3\nSSLCertificateKeyFile %4\n")
                        .arg(modules, dir, m_tlsCertificate, m_tlsKey);
        *arguments = {QStringLiteral("-f"), config, QStringLiteral("-DFOREGROUND")};
    } else if (name == u"h2o") {
        // As root h2o would switch to nobody before writing its pid file into our folder.
        const QString https =
            tls ? QStringLiteral("  ssl:\n    certificate-file: %1\n    key-file: %2\n"
                                 "    minimum-version: TLSv1.2\n")
                      .arg(m_tlsCertificate, m_tlsKey)
                : QString();
        text =
            QStringLiteral("%5listen:\n  host: 127.0.0.1\n  port: %1\n%6num-threads: %2\n"
                           "error-log: %3/error.log\npid-file: %3/h2o.pid\n"
                           "hosts:\n  default:\n    paths:\n      /:\n        file.dir: %4\n")
                .arg(port)
                .arg(workers)
                .arg(dir, root, geteuid() == 0 ? QStringLiteral("user: root\n") : QString(), https);
        *arguments = {QStringLiteral("-c"), config};
    } else if (ServerTemplate::isTomcat(name)) {
        // Tomcat 10 with the NIO connector (BIO and APR are gone from Tomcat 10.1), with or
        // without sendfile, and the DefaultServlet over the root: a CATALINA_BASE of its own in
        // the temporary folder.
        for (const char *sub : {"conf", "logs", "temp", "work", "webapps"})
            QDir(dir).mkpath(QString::fromLatin1(sub));
        const QString webXml = QStringLiteral(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"5.0\">\n"
            "  <servlet>\n    <servlet-name>default</servlet-name>\n"
            "    <servlet-class>org.apache.catalina.servlets.DefaultServlet</servlet-class>\n"
            "    <init-param><param-name>listings</param-name><param-value>false</param-value>"
            "</init-param>\n    <load-on-startup>1</load-on-startup>\n  </servlet>\n"
            "  <servlet-mapping><servlet-name>default</servlet-name><url-pattern>/</url-pattern>"
            "</servlet-mapping>\n</web-app>\n");
        if (!writeTextFile(QDir(dir).filePath(QStringLiteral("conf/web.xml")), webXml, error))
            return false;
        text = QStringLiteral(
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<Server port=\"-1\" shutdown=\"SHUTDOWN\">\n  <Service name=\"Catalina\">\n"
                   "    <Connector address=\"127.0.0.1\" port=\"%1\" maxThreads=\"%2\"\n"
                   "      protocol=\"org.apache.coyote.http11.Http11NioProtocol\" "
                   "useSendfile=\"%5\"/>\n"
                   "    <Engine name=\"Catalina\" defaultHost=\"localhost\">\n"
                   "      <Host name=\"localhost\" appBase=\"%3/webapps\" autoDeploy=\"false\" "
                   "deployOnStartup=\"false\" unpackWARs=\"false\">\n"
                   "        <Context path=\"\" docBase=\"%4\" reloadable=\"false\"/>\n"
                   "      </Host>\n    </Engine>\n  </Service>\n</Server>\n")
                   .arg(port)
                   .arg(std::max(workers, 1) * 100)
                   .arg(dir, root,
                        name == u"tomcat" ? QStringLiteral("true") : QStringLiteral("false"));
        const QString home = ServerTemplate::tomcatHome();
        *arguments = {QStringLiteral("-Dcatalina.home=") + home,
                      QStringLiteral("-Dcatalina.base=") + dir,
                      QStringLiteral("-Djava.io.tmpdir=") + dir + QStringLiteral("/temp"),
                      QStringLiteral("-cp"),
                      home + QStringLiteral("/bin/bootstrap.jar:") + home +
                          QStringLiteral("/bin/tomcat-juli.jar"),
                      QStringLiteral("org.apache.catalina.startup.Bootstrap"),
                      QStringLiteral("start")};
        return writeTextFile(QDir(dir).filePath(QStringLiteral("conf/server.xml")), text, error);
    } else {
        *error = QStringLiteral("no template for '%1' (known: %2, or command:...)")
                     .arg(name, ServerTemplate::names().join(QStringLiteral(", ")));
        return false;
    }
    return writeTextFile(config, text, error);
}

bool ExternalServer::start(const QString &target, const QString &root, int workers, QString *error,
                           int readyTimeoutMs)
{
    stop();
    m_dir = std::make_unique<QTemporaryDir>();
    m_port = server::Listener::freeLoopbackPort();
    if (!m_dir->isValid() || m_port == 0) {
        *error = QStringLiteral("cannot prepare a folder and a port for %1").arg(target);
        return false;
    }
    QString program;
    QStringList arguments;
    if (targetKindOf(target) == TargetKind::Command) {
        QString command = targetValue(target).trimmed();
        if (!command.contains(QStringLiteral("{port}"))) {
            *error = QStringLiteral("the command must contain {port}: %1").arg(command);
            return false;
        }
        command.replace(QStringLiteral("{port}"), QString::number(m_port))
            .replace(QStringLiteral("{root}"), root)
            .replace(QStringLiteral("{dir}"), m_dir->path());
        arguments = QProcess::splitCommand(command);
        if (arguments.isEmpty()) {
            *error = QStringLiteral("the command is empty");
            return false;
        }
        program = arguments.takeFirst();
    } else if (QString served = root; target == u"apache" && geteuid() == 0 &&
                                      !readableByOthers(root) &&
                                      !mirrorForOthers(root, &served, error)) {
        return false;
    } else if (!writeConfig(target, served, std::max(workers, 1), &program, &arguments, error)) {
        return false;
    }
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(program);
    m_process->setArguments(arguments);
    m_process->setWorkingDirectory(m_dir->path());
    // Its own process group (so stop() reaches the workers too), and gone if we are.
    m_process->setChildProcessModifier([] {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    });
    m_process->start();
    if (!m_process->waitForStarted(readyTimeoutMs)) {
        *error = QStringLiteral("cannot start %1: %2").arg(program, m_process->errorString());
        m_process.reset();
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    // waitForFinished() doubles as the pause between tries, and notices an early exit without
    // an event loop (QProcess::state() alone would not).
    bool exited = false;
    while (!accepts(m_port)) {
        exited = exited || m_process->waitForFinished(20);
        if (exited || clock.elapsed() > readyTimeoutMs) {
            // The last line says why (h2o, for one, starts with an [INFO] line).
            const QString output = QString::fromLocal8Bit(m_process->readAllStandardError() +
                                                          m_process->readAllStandardOutput())
                                       .trimmed()
                                       .section(u'\n', -1);
            *error =
                QStringLiteral("%1 %2 on 127.0.0.1:%3%4")
                    .arg(QFileInfo(program).fileName(),
                         exited ? QStringLiteral("exited before listening")
                                : QStringLiteral("did not listen within %1 ms").arg(readyTimeoutMs))
                    .arg(m_port)
                    .arg(output.isEmpty() ? QString() : QStringLiteral(": ") + output);
            stop();
            return false;
        }
    }
    return true;
}

void ExternalServer::stop()
{
    if (m_process) {
        const auto pid = static_cast<pid_t>(m_process->processId());
        if (m_process->state() != QProcess::NotRunning && pid > 0) {
            ::kill(-pid, SIGTERM); // the whole group: nginx's and Apache's workers too
            if (!m_process->waitForFinished(stopTimeoutMs)) {
                ::kill(-pid, SIGKILL);
                m_process->waitForFinished(stopTimeoutMs);
            }
        }
        if (pid > 0)
            ::kill(-pid, SIGKILL); // stragglers of the group, if the leader went first
        m_process.reset();
    }
    m_dir.reset();
    m_mirror.reset();
    m_port = 0;
}

} // namespace servelab::lab
