-- 90 % new payments, 10 % retries of one of this thread's earlier keys (a replay).
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
local n = 0
local used = {}

request = function()
  if n > 0 and math.random() < 0.1 then
    return payment(used[math.random(#used)])
  end
  n = n + 1
  local key = "mix-" .. run .. "-" .. tid .. "-" .. n
  if #used < 5000 then
    used[#used + 1] = key
  else
    used[math.random(#used)] = key
  end
  return payment(key)
end
