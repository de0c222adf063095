-- TPC-H Q11, important stock identification; the scalar subquery in HAVING becomes a cross
-- join with the total (two independent aggregation branches: a tree).
SELECT part_value.ps_partkey, round(part_value.value, 2) AS value
FROM (SELECT ps.ps_partkey, sum(ps.ps_supplycost * ps.ps_availqty) AS value
      FROM tpch.partsupp ps
      JOIN tpch.supplier s ON ps.ps_suppkey = s.s_suppkey
      JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
      WHERE n.n_name = 'GERMANY'
      GROUP BY ps.ps_partkey) part_value
CROSS JOIN (SELECT sum(ps2.ps_supplycost * ps2.ps_availqty) * 0.0001 AS threshold
            FROM tpch.partsupp ps2
            JOIN tpch.supplier s2 ON ps2.ps_suppkey = s2.s_suppkey
            JOIN tpch.nation n2 ON s2.s_nationkey = n2.n_nationkey
            WHERE n2.n_name = 'GERMANY') total
WHERE part_value.value > total.threshold
ORDER BY value DESC, part_value.ps_partkey
