-- A same-key storm: every connection of every thread sends the same key for one second, then
-- all move to the next key, so each key meets all connections at once.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")

request = function()
  return payment("storm-" .. run .. "-" .. os.time())
end
