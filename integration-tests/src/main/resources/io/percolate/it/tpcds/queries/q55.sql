-- TPC-DS query 55 (one manager's November 1999 sales by brand), in our HiveQL.
SELECT i.i_brand_id AS brand_id, i.i_brand AS brand, sum(ss.ss_ext_sales_price) AS ext_price
FROM tpcds.date_dim d
JOIN tpcds.store_sales ss ON d.d_date_sk = ss.ss_sold_date_sk
JOIN tpcds.item i ON ss.ss_item_sk = i.i_item_sk
WHERE i.i_manager_id = 28 AND d.d_moy = 11 AND d.d_year = 1999
GROUP BY i.i_brand, i.i_brand_id
ORDER BY ext_price DESC, brand_id
LIMIT 100
