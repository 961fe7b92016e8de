-- New payments (a key never used before) at a fixed rate, an open-model load: PACE_RATE requests
-- per second over all of wrk's threads (PACE_THREADS, 2 as bench/run.sh starts wrk). Each thread
-- keeps its own schedule of send times, one every PACE_THREADS / PACE_RATE seconds, and delay()
-- holds each connection's next request until the next unclaimed time on it: the rate does not
-- follow the server's latency as long as a connection is free when a send is due. wrk measures
-- latency from the moment a request is written, so a send that leaves behind its schedule (every
-- connection busy: the closed-model effect called coordinated omission) would hide queueing; done()
-- prints how many did and by how much, and the report shows it beside the percentiles.
-- (Debian's `hey -q` paces too, but sends one fixed set of headers per run: every request would
-- carry the same Idempotency-Key, so all but the first would be replays.)
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock_id, bench_timespec *now);
]]
local timespec = ffi.new("bench_timespec")
local function now_ms() -- CLOCK_MONOTONIC in milliseconds (os.time counts whole seconds)
  ffi.C.clock_gettime(1, timespec)
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local rate = tonumber(os.getenv("PACE_RATE") or "")
if not rate or rate <= 0 then
  error("PACE_RATE must be a positive number of requests per second")
end
local pace_threads = tonumber(os.getenv("PACE_THREADS") or "2")
local interval = 1000 * pace_threads / rate -- milliseconds between two sends of this thread
local next_send = nil
local n = 0
sends, late, max_late = 0, 0, 0 -- globals: done() reads them through thread:get

local common_setup = setup
local all_threads = {}
function setup(thread)
  common_setup(thread)
  all_threads[#all_threads + 1] = thread
end

function delay()
  local now = now_ms()
  if next_send == nil then
    next_send = now + (tid - 1) * interval / pace_threads -- the threads' schedules interleave
  end
  local due = next_send
  next_send = next_send + interval
  sends = sends + 1
  if due > now then
    return due - now
  end
  if now - due > 1 then
    late = late + 1
  end
  if now - due > max_late then
    max_late = now - due
  end
  return 0
end

request = function()
  n = n + 1
  return payment("paced-" .. run .. "-" .. tid .. "-" .. n)
end

function done(summary, latency, requests)
  local total_sends, total_late, worst = 0, 0, 0
  for _, thread in ipairs(all_threads) do
    total_sends = total_sends + thread:get("sends")
    total_late = total_late + thread:get("late")
    worst = math.max(worst, thread:get("max_late"))
  end
  io.write(string.format("Paced: %.1f requests/s scheduled; %d sends, %d more than 1 ms behind schedule (at most %.1f ms)\n",
    rate, total_sends, total_late, worst))
end
