-- TPC-H Q20, potential part promotion; IN subqueries become semi joins, the correlated
-- quantity sum a per-(part, supplier) aggregate joined back.
SELECT s.s_name, s.s_address
FROM tpch.supplier s
JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
LEFT SEMI JOIN (
  SELECT ps.ps_suppkey AS avail_suppkey
  FROM tpch.partsupp ps
  JOIN (SELECT l_partkey, l_suppkey, 0.5 * sum(l_quantity) AS half_qty
        FROM tpch.lineitem
        WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
        GROUP BY l_partkey, l_suppkey) shipped
    ON shipped.l_partkey = ps.ps_partkey AND shipped.l_suppkey = ps.ps_suppkey
  LEFT SEMI JOIN (SELECT p_partkey FROM tpch.part WHERE p_name LIKE 'forest%') forest
    ON ps.ps_partkey = forest.p_partkey
  WHERE ps.ps_availqty > shipped.half_qty
) avail ON s.s_suppkey = avail.avail_suppkey
WHERE n.n_name = 'CANADA'
ORDER BY s.s_name
