-- TPC-H Q22, global sales opportunity; the scalar average becomes a cross join, NOT EXISTS an
-- anti join on the customers with orders.
SELECT cntrycode, count(*) AS numcust, round(sum(c_acctbal), 2) AS totacctbal
FROM (SELECT substr(c.c_phone, 1, 2) AS cntrycode, c.c_acctbal
      FROM tpch.customer c
      CROSS JOIN (SELECT avg(c_acctbal) AS avg_bal FROM tpch.customer
                  WHERE c_acctbal > 0.00 AND substr(c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17')) a
      LEFT OUTER JOIN (SELECT DISTINCT o_custkey FROM tpch.orders) o ON c.c_custkey = o.o_custkey
      WHERE substr(c.c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17')
        AND c.c_acctbal > a.avg_bal AND o.o_custkey IS NULL) custsale
GROUP BY cntrycode
ORDER BY cntrycode
