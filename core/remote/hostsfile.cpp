// SPDX-License-Identifier: Apache-2.0
#include "hostsfile.h"

#include "lab/spec/jsonlocator.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <cmath>

namespace servelab::remote {

namespace {

constexpr int fileVersion = 1;

// Reads one document, remembering the first problem with the place it is at.
class Reader
{
public:
    Reader(const QByteArray &text, QString fileName) : m_locator(text), m_file(std::move(fileName))
    {}

    bool fail(const QString &path, const QString &message)
    {
        if (m_error.isEmpty()) {
            const auto at = m_locator.valueAt(path);
            m_error = QStringLiteral("%1:%2: %3: %4").arg(m_file).arg(at.line).arg(path, message);
        }
        return false;
    }
    bool failKey(const QString &path, const QString &message)
    {
        if (m_error.isEmpty()) {
            const auto at = m_locator.keyAt(path);
            m_error = QStringLiteral("%1:%2: %3: %4").arg(m_file).arg(at.line).arg(path, message);
        }
        return false;
    }
    const QString &error() const { return m_error; }

    bool onlyKeys(const QJsonObject &object, const QString &path, const QStringList &keys)
    {
        for (auto it = object.begin(); it != object.end(); ++it)
            if (!keys.contains(it.key()))
                return failKey(path.isEmpty() ? it.key() : path + u'.' + it.key(),
                               QStringLiteral("unknown field; this object takes %1")
                                   .arg(keys.join(QStringLiteral(", "))));
        return true;
    }

    bool text(const QJsonObject &object, const QString &path, const QString &key, QString *out,
              bool required)
    {
        const QJsonValue value = object.value(key);
        if (value.isUndefined()) {
            if (required)
                return fail(path, QStringLiteral("\"%1\" is missing").arg(key));
            return true;
        }
        if (!value.isString() || value.toString().trimmed().isEmpty())
            return fail(path + u'.' + key, QStringLiteral("must be a non-empty string"));
        *out = value.toString().trimmed();
        return true;
    }

    bool strings(const QJsonValue &value, const QString &path, QStringList *out)
    {
        if (value.isUndefined())
            return true;
        if (!value.isArray())
            return fail(path, QStringLiteral("must be a list of strings, as [\"-p\", \"2222\"]"));
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!array[i].isString())
                return fail(QStringLiteral("%1[%2]").arg(path).arg(i),
                            QStringLiteral("must be a string"));
            *out << array[i].toString();
        }
        return true;
    }

    bool entry(const QJsonValue &value, const QString &path, bool isServer, HostEntry *out)
    {
        if (!value.isObject())
            return fail(path, QStringLiteral("must be an object, as {\"host\": \"web1\"%1}")
                                  .arg(isServer ? QStringLiteral(", \"address\": \"10.0.0.1\"")
                                                : QString()));
        const QJsonObject object = value.toObject();
        QStringList keys{QStringLiteral("host"), QStringLiteral("via"), QStringLiteral("options"),
                         QStringLiteral("agent")};
        if (isServer)
            keys << QStringLiteral("address") << QStringLiteral("listen");
        else
            keys << QStringLiteral("weight");
        if (!onlyKeys(object, path, keys) ||
            !text(object, path, QStringLiteral("host"), &out->host, true) ||
            !text(object, path, QStringLiteral("via"), &out->via, false) ||
            !text(object, path, QStringLiteral("agent"), &out->agent, false) ||
            !strings(object.value(QStringLiteral("options")), path + QStringLiteral(".options"),
                     &out->options))
            return false;
        if (isServer)
            return text(object, path, QStringLiteral("address"), &out->address, true) &&
                   text(object, path, QStringLiteral("listen"), &out->listen, false);
        const QJsonValue weight = object.value(QStringLiteral("weight"));
        if (weight.isUndefined())
            return true;
        if (!weight.isDouble() || !std::isfinite(weight.toDouble()) || weight.toDouble() <= 0 ||
            weight.toDouble() > 1e6)
            return fail(path + QStringLiteral(".weight"),
                        QStringLiteral("must be a number above 0 (a share of the load: 1, 2, "
                                       "0.5)"));
        out->weight = weight.toDouble();
        return true;
    }

private:
    lab::JsonLocator m_locator;
    QString m_file;
    QString m_error;
};

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QJsonObject entryJson(const HostEntry &entry, bool isServer)
{
    QJsonObject object{{QStringLiteral("host"), entry.host}};
    if (entry.via != u"ssh")
        object.insert(QStringLiteral("via"), entry.via);
    if (!entry.options.isEmpty())
        object.insert(QStringLiteral("options"), toArray(entry.options));
    if (!entry.agent.isEmpty())
        object.insert(QStringLiteral("agent"), entry.agent);
    if (isServer) {
        object.insert(QStringLiteral("address"), entry.address);
        if (!entry.listen.isEmpty())
            object.insert(QStringLiteral("listen"), entry.listen);
    } else if (entry.weight != 1) {
        object.insert(QStringLiteral("weight"), entry.weight);
    }
    return object;
}

} // namespace

std::optional<HostsFile> HostsFile::read(const QString &path, QString *why)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read the hosts file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return parse(file.readAll(), path, why);
}

std::optional<HostsFile> HostsFile::parse(const QByteArray &text, const QString &fileName,
                                          QString *why)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto at = lab::JsonLocator::positionIn(text, parseError.offset);
        *why = QStringLiteral("%1:%2:%3: not JSON: %4")
                   .arg(fileName)
                   .arg(at.line)
                   .arg(at.column)
                   .arg(parseError.errorString());
        return std::nullopt;
    }
    Reader reader(text, fileName);
    HostsFile hosts;
    const QJsonObject root = document.object();
    const auto done = [&]() -> std::optional<HostsFile> {
        *why = reader.error();
        return std::nullopt;
    };
    if (!document.isObject()) {
        reader.fail(QString(), QStringLiteral("a hosts file is a JSON object with \"servelab\": "
                                              "1, \"server\" and \"load\""));
        return done();
    }
    if (!reader.onlyKeys(root, QString(),
                         {QStringLiteral("servelab"), QStringLiteral("server"),
                          QStringLiteral("load"), QStringLiteral("agent"),
                          QStringLiteral("connectors")}))
        return done();
    if (root.value(QStringLiteral("servelab")).toInt(-1) != fileVersion) {
        reader.fail(QStringLiteral("servelab"),
                    QStringLiteral("must be %1 (the hosts file's version)").arg(fileVersion));
        return done();
    }
    if (!reader.text(root, QString(), QStringLiteral("agent"), &hosts.agent, false))
        return done();

    const QJsonValue connectors = root.value(QStringLiteral("connectors"));
    if (!connectors.isUndefined()) {
        if (!connectors.isObject()) {
            reader.fail(QStringLiteral("connectors"),
                        QStringLiteral("must be an object of name: [command template]"));
            return done();
        }
        const QJsonObject object = connectors.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            Connector connector;
            connector.name = it.key();
            connector.summary = QStringLiteral("from the hosts file");
            const QString path = QStringLiteral("connectors.") + it.key();
            if (!reader.strings(it.value(), path, &connector.argv))
                return done();
            if (const QString problem = connector.problem(); !problem.isEmpty()) {
                reader.fail(path, problem);
                return done();
            }
            hosts.connectors << connector;
        }
    }

    if (!reader.entry(root.value(QStringLiteral("server")), QStringLiteral("server"), true,
                      &hosts.server))
        return done();
    const QJsonValue load = root.value(QStringLiteral("load"));
    if (!load.isArray() || load.toArray().isEmpty()) {
        reader.fail(QStringLiteral("load"),
                    QStringLiteral("must list one load host or more, as [{\"host\": "
                                   "\"load1\"}]"));
        return done();
    }
    const QJsonArray loadHosts = load.toArray();
    for (qsizetype i = 0; i < loadHosts.size(); ++i) {
        HostEntry entry;
        if (!reader.entry(loadHosts[i], QStringLiteral("load[%1]").arg(i), false, &entry))
            return done();
        hosts.load << entry;
    }
    // Every entry's connector exists.
    const auto known = [&](const HostEntry &entry, const QString &path) {
        if (hosts.connector(entry.via))
            return true;
        QStringList names;
        for (const Connector &c : Connector::builtin())
            names << c.name;
        for (const Connector &c : hosts.connectors)
            names << c.name;
        return reader.fail(path + QStringLiteral(".via"),
                           QStringLiteral("no connector \"%1\": use %2, or define it under "
                                          "\"connectors\"")
                               .arg(entry.via, names.join(QStringLiteral(", "))));
    };
    if (!known(hosts.server, QStringLiteral("server")))
        return done();
    for (qsizetype i = 0; i < hosts.load.size(); ++i)
        if (!known(hosts.load[i], QStringLiteral("load[%1]").arg(i)))
            return done();
    return hosts;
}

QJsonObject HostsFile::toJson() const
{
    QJsonObject root{{QStringLiteral("servelab"), fileVersion},
                     {QStringLiteral("server"), entryJson(server, true)}};
    QJsonArray loadHosts;
    for (const HostEntry &entry : load)
        loadHosts.append(entryJson(entry, false));
    root.insert(QStringLiteral("load"), loadHosts);
    if (!agent.isEmpty())
        root.insert(QStringLiteral("agent"), agent);
    if (!connectors.isEmpty()) {
        QJsonObject object;
        for (const Connector &c : connectors)
            object.insert(c.name, toArray(c.argv));
        root.insert(QStringLiteral("connectors"), object);
    }
    return root;
}

const Connector *HostsFile::connector(const QString &name) const
{
    for (const Connector &c : connectors)
        if (c.name == name)
            return &c;
    return Connector::find(name);
}

QStringList HostsFile::command(const HostEntry &entry) const
{
    const Connector *via = connector(entry.via);
    if (!via)
        return {};
    QString program = entry.agent.isEmpty() ? agent : entry.agent;
    if (program.isEmpty())
        program = via->sameMachine ? localAgentProgram() : QStringLiteral("servelab-cli");
    return via->command(entry.host, program, entry.options);
}

QString HostsFile::label(const HostEntry &entry, int loadIndex)
{
    return loadIndex < 0 ? QStringLiteral("server agent (%1)").arg(entry.host)
                         : QStringLiteral("load agent %1 (%2)").arg(loadIndex + 1).arg(entry.host);
}

} // namespace servelab::remote
