#include "bodytransfer.h"

#include "sendfiletransfer.h"
#include "serveroptions.h"

namespace servelab::server {

std::unique_ptr<BodyTransfer> createBodyTransfer(const std::string &name,
                                                 const ServerOptions &options)
{
    if (name == "sendfile")
        return std::make_unique<SendfileTransfer>(options.sendfileThreshold, options.sendfileChunk);
    return nullptr;
}

} // namespace servelab::server
