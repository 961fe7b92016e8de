-- Shared by the wrk scripts: numbers the threads so every request can carry a key unique to
-- this run (RUN), this thread and this request. PAYONCE_API_KEY authenticates.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

api_key = os.getenv("PAYONCE_API_KEY") or ""
run = os.getenv("RUN") or tostring(os.time())

function payment(key)
  return wrk.format("POST", "/payments", {
    ["Authorization"] = "Bearer " .. api_key,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = key,
  }, '{"orderId":"' .. key .. '","amount":1200,"currency":"ILS"}')
end
