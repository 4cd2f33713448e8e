// SPDX-License-Identifier: Apache-2.0
#include "sweepspec.h"

#include "server/eventmodel.h"
#include "transport.h"

#include "docrootgenerator.h"
#include "experimentmodel.h"
#include "server/servermode.h"
#include "server/serveroptions.h"
#include "serveroptiontable.h"
#include "servertemplate.h"
#include "sizelist.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QUrl>

#include <utility>

namespace servelab::lab {

QString SweepSpec::captionProblem(const QString &caption)
{
    if (caption.size() <= 40 && !caption.contains(u'\n'))
        return {};
    return QStringLiteral("the label '%1' is not one line of at most 40 characters: shorten it")
        .arg(caption);
}

QString SweepSpec::protocol() const
{
    Transport via;
    QString unused;
    Transport::parse(transport, &via, &unused);
    return via.protocol();
}

QString SweepSpec::http2Problem() const
{
    Transport via;
    QString unused;
    Transport::parse(transport, &via, &unused);
    const QString protocol = via.protocol();
    if (kind() == TargetKind::Template) {
        if (const QString no = ServerTemplate::noHttp2(target); !no.isEmpty())
            return QStringLiteral("%1 over %2: %3").arg(name(), protocol, no);
    } else if (kind() == TargetKind::Builtin) {
        server::ServerOptions options;
        options.mode = mode.toStdString();
        options.http2 = true;
        if (QString why; !ServerOptionTable::check(options, &why))
            return why;
    }
    if (http10 || abReads)
        return QStringLiteral("%1 is HTTP/1's: over %2 turn it off")
            .arg(http10 ? QStringLiteral("http1_0") : QStringLiteral("ab_reads"), protocol);
    if (QString problem = SpecFields::streams.problem(streams, FieldNaming::Label);
        !problem.isEmpty())
        return problem;
    if (concurrency % streams != 0)
        return QStringLiteral("over %1 the concurrency (%2) goes %3 streams to a connection: "
                              "make it a multiple of %3")
            .arg(protocol)
            .arg(concurrency)
            .arg(streams);
    if (model != client::LoadModel::Closed && concurrency / streams < clientThreads)
        return QStringLiteral("over %1, %2 client threads need %2 connections: %3 requests "
                              "in flight at %4 streams make %5")
            .arg(protocol)
            .arg(clientThreads)
            .arg(concurrency)
            .arg(streams)
            .arg(concurrency / streams);
    return {};
}

QString SweepSpec::validate() const
{
    if (sizes.isEmpty())
        return QStringLiteral("no file sizes given: write them like 4K,64K,1M or 4K..32M");
    if (isUrl()) {
        const QUrl parsed(url(), QUrl::StrictMode);
        if (!parsed.isValid() || parsed.scheme() != u"http" || parsed.host().isEmpty() ||
            parsed.hasQuery() || parsed.hasFragment())
            return QStringLiteral("'%1' is not a URL ServeLab can load: write "
                                  "http://HOST:PORT/FOLDER/ (https is not measured)")
                .arg(url());
        if (watchPid < 0)
            return QStringLiteral("the pid to watch must be positive");
    } else if (kind() == TargetKind::Template && !ServerTemplate::names().contains(target)) {
        return QStringLiteral("unknown target '%1' (builtin, %2, or command:...)")
            .arg(target, ServerTemplate::names().join(QStringLiteral(", ")));
    } else if (kind() == TargetKind::Command && !target.contains(QStringLiteral("{port}"))) {
        return QStringLiteral("a command target must contain {port}");
    }
    if (QString problem = captionProblem(caption); !problem.isEmpty())
        return problem;
    std::string error;
    server::ServerMode parsed;
    if (!server::parseServerMode(mode.toStdString(), &parsed, &error))
        return QString::fromStdString(error);
    namespace F = SpecFields;
    constexpr auto label = FieldNaming::Label;
    if (QString problem = F::serverThreads.problem(serverThreads, label); !problem.isEmpty())
        return problem;
    if (const QString problem = ExperimentModel::of(model).problem(*this, concurrency, label);
        !problem.isEmpty())
        return problem;
    for (const auto &[field, value] :
         {std::pair{&F::timeoutMs, timeoutMs}, std::pair{&F::pointDeadlineMs, pointDeadlineMs}})
        if (QString problem = field->problem(value, label); !problem.isEmpty())
            return problem;
    if (!serverArguments.isEmpty() && kind() != TargetKind::Builtin)
        return QStringLiteral("server options apply to builtin targets");
    Transport via;
    if (QString problem; !Transport::parse(transport, &via, &problem))
        return QStringLiteral("transport ") + problem;
    for (const QString &argument : serverArguments)
        if (argument.startsWith(QStringLiteral("--tls")))
            return QStringLiteral("%1 is set by the experiment's \"transport\": write "
                                  "\"transport\": \"https\" so that the client speaks TLS too")
                .arg(argument);
    if (via.https && kind() != TargetKind::Builtin &&
        !(kind() == TargetKind::Template && ServerTemplate::takesTls(target)))
        return QStringLiteral("https is measured on builtin targets and the nginx, lighttpd, "
                              "apache and h2o templates: %1 is taken as http")
            .arg(name());
    if (via.https) {
        const auto *model = server::findEventModel(parsed.model);
        if (model && model->noTls)
            return QString::fromUtf8(model->noTls);
    }
    if (via.http2) {
        if (QString problem = http2Problem(); !problem.isEmpty())
            return problem;
    }
    if (!tune.isEmpty() && kind() != TargetKind::Builtin)
        return QStringLiteral("tune applies to builtin targets: a real server or a URL takes "
                              "its changes from its own configuration");
    if (QString problem = TunePlan::problem(tune, mode); !problem.isEmpty())
        return problem;
    if (kind() == TargetKind::Builtin && !isolated && (fdLimit != 0 || !serverArguments.isEmpty()))
        return QStringLiteral("an fd limit and server options need the server in its own process: "
                              "drop \"isolated\": false (or the limit and options)");
    if (!serverArguments.isEmpty()) { // checked by the rows `serve` reads its flags with
        server::ServerOptions options;
        options.mode = mode.toStdString();
        if (QString problem; !ServerOptionTable::apply(&options, serverArguments, &problem))
            return problem;
    }
    if (DocRootGenerator::Content kind; !DocRootGenerator::parseContent(content, &kind))
        return QStringLiteral("the content of the files is random or zeros, not '%1'").arg(content);
    if (QString problem = F::filesPerSize.problem(filesPerSize, label); !problem.isEmpty())
        return problem;
    if (!generateRoot && root.isEmpty())
        return QStringLiteral("a document root that is not generated needs its path");
    if (watchPid != 0 && !isUrl())
        return QStringLiteral("a pid to watch applies to url targets (ServeLab knows the others)");
    if (fdLimit != 0 && (fdLimit < 16 || fdLimit > (1 << 20)))
        return QStringLiteral("the fd limit must be 0 (inherit) or between 16 and 1048576");
    return {};
}

QString SweepSpec::label() const
{
    return caption.isEmpty() ? name() : QStringLiteral("%1 (%2)").arg(name(), caption);
}

QString SweepSpec::name() const
{
    switch (kind()) {
    case TargetKind::Builtin: // in-process figures are not the server's alone: said everywhere
        return isolated ? mode : mode + QStringLiteral(" (in-process)");
    case TargetKind::Url: return url();
    case TargetKind::Command:
        return QFileInfo(QProcess::splitCommand(targetValue(target)).value(0)).fileName() +
               QStringLiteral(" (command)");
    case TargetKind::Template: break;
    }
    return target;
}

QString SweepSpec::resolvedRoot() const
{
    if (!root.isEmpty() || isUrl())
        return root;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(content == u"zeros" ? QStringLiteral("servelab/docroot-zeros")
                                      : QStringLiteral("servelab/docroot"));
}

SweepSpec SweepSpec::defaults()
{
    SweepSpec spec;
    parseSizeList(QStringLiteral("4K..32M"), &spec.sizes, nullptr);
    return spec;
}

QByteArray SweepSpec::toJson() const
{
    QJsonArray sizeList;
    for (quint64 size : sizes)
        sizeList.append(formatSize(size));
    const bool builtin = kind() == TargetKind::Builtin;
    QJsonObject target = !builtin ? QJsonObject{{QStringLiteral("external"), this->target}}
                                  : QJsonObject{{QStringLiteral("builtin"), mode}};
    target.insert(QStringLiteral("threads"), serverThreads);
    if (builtin)
        target.insert(QStringLiteral("isolated"), isolated);
    if (fdLimit != 0)
        target.insert(QStringLiteral("fd_limit"), fdLimit);
    if (!caption.isEmpty())
        target.insert(QStringLiteral("label"), caption);
    if (!tune.isEmpty())
        target.insert(QStringLiteral("tune"), TunePlan::toJson(tune));
    const QJsonObject client{{QStringLiteral("model"), QStringLiteral("closed")},
                             {QStringLiteral("requests"), qint64(requests)},
                             {QStringLiteral("concurrency"), concurrency},
                             {QStringLiteral("keep_alive"), keepAlive},
                             {QStringLiteral("timeout_ms"), timeoutMs}};
    QJsonObject json{{QStringLiteral("servelab"), 1},
                     {QStringLiteral("targets"), QJsonArray{target}},
                     {QStringLiteral("sizes"), sizeList},
                     {QStringLiteral("client"), client},
                     {QStringLiteral("point_deadline_ms"), pointDeadlineMs}};
    if (!root.isEmpty())
        json.insert(QStringLiteral("document_root"), root);
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

} // namespace servelab::lab
