-- TPC-H Q17, small-quantity-order revenue; the correlated subquery becomes a pre-aggregated
-- lineitem joined back, so the DAG is a tree: the aggregate and the part join run side by side.
SELECT round(sum(l.l_extendedprice) / 7.0, 2) AS avg_yearly
FROM tpch.lineitem l
JOIN tpch.part p ON p.p_partkey = l.l_partkey
JOIN (SELECT l_partkey AS agg_partkey, 0.2 * avg(l_quantity) AS avg_quantity
      FROM tpch.lineitem GROUP BY l_partkey) a ON a.agg_partkey = p.p_partkey
WHERE p.p_brand = 'Brand#23' AND p.p_container = 'MED BOX' AND l.l_quantity < a.avg_quantity
