"""Searches for UPnP devices with async-upnp-client (PyPI) once a second, bound to one address,
for at most SECONDS or until standard input closes: one JSON object of an answer's headers a line,
as `upnp-client search` prints them. One process for the whole wait, where `upnp-client search`
in a loop would start Python once a second (half a second of CPU each) while a renderer starts.

    ssdp_search_loop.py BIND_ADDRESS SEARCH_TARGET SECONDS
"""
import asyncio
import json
import sys

from async_upnp_client.search import async_search


async def main(bind: str, search_target: str, seconds: float) -> None:
    loop = asyncio.get_running_loop()
    closed = loop.create_future()
    loop.add_reader(sys.stdin.fileno(), lambda: closed.done() or (not sys.stdin.buffer.read1(4096) and closed.set_result(None)))
    deadline = loop.time() + seconds

    async def on_answer(headers) -> None:
        print(json.dumps({key: str(value) for key, value in headers.items()}), flush=True)

    while loop.time() < deadline and not closed.done():
        await async_search(async_callback=on_answer, timeout=1, search_target=search_target, source=(bind, 0))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
