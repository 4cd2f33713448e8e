// SPDX-License-Identifier: Apache-2.0
// A test target that leaks on purpose, as the seeds' servers did ("Too many open files"): a
// one-thread HTTP server that opens the requested file for every request and never closes it.
//   leakyserver PORT ROOT
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(std::stoi(argv[1])));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        listen(listener, 128) != 0)
        return 1;
    const std::string root = argv[2];
    for (;;) {
        const int c = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0)
            continue;
        std::string request;
        char buffer[4096];
        while (request.find("\r\n\r\n") == std::string::npos) {
            const ssize_t n = recv(c, buffer, sizeof buffer, 0);
            if (n <= 0)
                break;
            request.append(buffer, static_cast<std::size_t>(n));
        }
        if (request.find("\r\n\r\n") == std::string::npos) {
            close(c); // a readiness probe, or a client gone early
            continue;
        }
        const auto start = request.find(' ') + 1;
        const std::string path = request.substr(start, request.find(' ', start) - start);
        const int file = open((root + path).c_str(), O_RDONLY | O_CLOEXEC); // never closed
        struct stat info
        {};
        if (file < 0 || fstat(file, &info) != 0) {
            const char notFound[] = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
            send(c, notFound, sizeof notFound - 1, MSG_NOSIGNAL);
        } else {
            const std::string head =
                "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(info.st_size) +
                "\r\nConnection: close\r\n\r\n";
            send(c, head.data(), head.size(), MSG_NOSIGNAL);
            ssize_t n;
            while ((n = read(file, buffer, sizeof buffer)) > 0)
                send(c, buffer, static_cast<std::size_t>(n), MSG_NOSIGNAL);
        }
        close(c);
    }
}
