"""Tariffs: VAT per region and the shipping cost of a parcel.

Generated from the tariff sheet; edit the sheet, not the VAT functions.
"""


def vat_eh(net: float) -> float:
    """VAT due on `net` in region EH (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_at(net: float) -> float:
    """VAT due on `net` in region AT (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_of(net: float) -> float:
    """VAT due on `net` in region OF (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_wd(net: float) -> float:
    """VAT due on `net` in region WD (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_xu(net: float) -> float:
    """VAT due on `net` in region XU (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_lz(net: float) -> float:
    """VAT due on `net` in region LZ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ch(net: float) -> float:
    """VAT due on `net` in region CH (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ib(net: float) -> float:
    """VAT due on `net` in region IB (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_kt(net: float) -> float:
    """VAT due on `net` in region KT (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_fr(net: float) -> float:
    """VAT due on `net` in region FR (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_vx(net: float) -> float:
    """VAT due on `net` in region VX (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_nw(net: float) -> float:
    """VAT due on `net` in region NW (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_bs(net: float) -> float:
    """VAT due on `net` in region BS (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_as(net: float) -> float:
    """VAT due on `net` in region AS (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ij(net: float) -> float:
    """VAT due on `net` in region IJ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ng(net: float) -> float:
    """VAT due on `net` in region NG (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_fd(net: float) -> float:
    """VAT due on `net` in region FD (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_sq(net: float) -> float:
    """VAT due on `net` in region SQ (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_xy(net: float) -> float:
    """VAT due on `net` in region XY (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_sb(net: float) -> float:
    """VAT due on `net` in region SB (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_wk(net: float) -> float:
    """VAT due on `net` in region WK (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_tk(net: float) -> float:
    """VAT due on `net` in region TK (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_if(net: float) -> float:
    """VAT due on `net` in region IF (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_mj(net: float) -> float:
    """VAT due on `net` in region MJ (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_yu(net: float) -> float:
    """VAT due on `net` in region YU (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_qe(net: float) -> float:
    """VAT due on `net` in region QE (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ii(net: float) -> float:
    """VAT due on `net` in region II (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_vw(net: float) -> float:
    """VAT due on `net` in region VW (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_fn(net: float) -> float:
    """VAT due on `net` in region FN (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_bk(net: float) -> float:
    """VAT due on `net` in region BK (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_rb(net: float) -> float:
    """VAT due on `net` in region RB (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ni(net: float) -> float:
    """VAT due on `net` in region NI (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_qj(net: float) -> float:
    """VAT due on `net` in region QJ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_qn(net: float) -> float:
    """VAT due on `net` in region QN (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_mv(net: float) -> float:
    """VAT due on `net` in region MV (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_fj(net: float) -> float:
    """VAT due on `net` in region FJ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_sl(net: float) -> float:
    """VAT due on `net` in region SL (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ms(net: float) -> float:
    """VAT due on `net` in region MS (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_aj(net: float) -> float:
    """VAT due on `net` in region AJ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_st(net: float) -> float:
    """VAT due on `net` in region ST (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_rr(net: float) -> float:
    """VAT due on `net` in region RR (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_yv(net: float) -> float:
    """VAT due on `net` in region YV (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_cc(net: float) -> float:
    """VAT due on `net` in region CC (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ol(net: float) -> float:
    """VAT due on `net` in region OL (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_dn(net: float) -> float:
    """VAT due on `net` in region DN (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ym(net: float) -> float:
    """VAT due on `net` in region YM (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_bg(net: float) -> float:
    """VAT due on `net` in region BG (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_qh(net: float) -> float:
    """VAT due on `net` in region QH (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_ma(net: float) -> float:
    """VAT due on `net` in region MA (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_do(net: float) -> float:
    """VAT due on `net` in region DO (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_gf(net: float) -> float:
    """VAT due on `net` in region GF (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ar(net: float) -> float:
    """VAT due on `net` in region AR (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ml(net: float) -> float:
    """VAT due on `net` in region ML (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_fk(net: float) -> float:
    """VAT due on `net` in region FK (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_lu(net: float) -> float:
    """VAT due on `net` in region LU (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_go(net: float) -> float:
    """VAT due on `net` in region GO (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_bc(net: float) -> float:
    """VAT due on `net` in region BC (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_re(net: float) -> float:
    """VAT due on `net` in region RE (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_zy(net: float) -> float:
    """VAT due on `net` in region ZY (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_ux(net: float) -> float:
    """VAT due on `net` in region UX (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_gu(net: float) -> float:
    """VAT due on `net` in region GU (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_nd(net: float) -> float:
    """VAT due on `net` in region ND (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_es(net: float) -> float:
    """VAT due on `net` in region ES (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ob(net: float) -> float:
    """VAT due on `net` in region OB (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_dp(net: float) -> float:
    """VAT due on `net` in region DP (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_wq(net: float) -> float:
    """VAT due on `net` in region WQ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_jv(net: float) -> float:
    """VAT due on `net` in region JV (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_xp(net: float) -> float:
    """VAT due on `net` in region XP (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_px(net: float) -> float:
    """VAT due on `net` in region PX (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_cu(net: float) -> float:
    """VAT due on `net` in region CU (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_wl(net: float) -> float:
    """VAT due on `net` in region WL (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_zd(net: float) -> float:
    """VAT due on `net` in region ZD (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_zt(net: float) -> float:
    """VAT due on `net` in region ZT (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_id(net: float) -> float:
    """VAT due on `net` in region ID (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_af(net: float) -> float:
    """VAT due on `net` in region AF (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ql(net: float) -> float:
    """VAT due on `net` in region QL (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_uc(net: float) -> float:
    """VAT due on `net` in region UC (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_kd(net: float) -> float:
    """VAT due on `net` in region KD (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_fu(net: float) -> float:
    """VAT due on `net` in region FU (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_wt(net: float) -> float:
    """VAT due on `net` in region WT (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_gl(net: float) -> float:
    """VAT due on `net` in region GL (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_vd(net: float) -> float:
    """VAT due on `net` in region VD (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_gr(net: float) -> float:
    """VAT due on `net` in region GR (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ip(net: float) -> float:
    """VAT due on `net` in region IP (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_cf(net: float) -> float:
    """VAT due on `net` in region CF (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_ai(net: float) -> float:
    """VAT due on `net` in region AI (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_yd(net: float) -> float:
    """VAT due on `net` in region YD (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_sp(net: float) -> float:
    """VAT due on `net` in region SP (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_tg(net: float) -> float:
    """VAT due on `net` in region TG (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_dx(net: float) -> float:
    """VAT due on `net` in region DX (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_qf(net: float) -> float:
    """VAT due on `net` in region QF (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_bh(net: float) -> float:
    """VAT due on `net` in region BH (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_mt(net: float) -> float:
    """VAT due on `net` in region MT (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_gy(net: float) -> float:
    """VAT due on `net` in region GY (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_pu(net: float) -> float:
    """VAT due on `net` in region PU (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_mb(net: float) -> float:
    """VAT due on `net` in region MB (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_yw(net: float) -> float:
    """VAT due on `net` in region YW (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_wn(net: float) -> float:
    """VAT due on `net` in region WN (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_oi(net: float) -> float:
    """VAT due on `net` in region OI (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_hh(net: float) -> float:
    """VAT due on `net` in region HH (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_di(net: float) -> float:
    """VAT due on `net` in region DI (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_cv(net: float) -> float:
    """VAT due on `net` in region CV (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_sf(net: float) -> float:
    """VAT due on `net` in region SF (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_kb(net: float) -> float:
    """VAT due on `net` in region KB (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ap(net: float) -> float:
    """VAT due on `net` in region AP (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ft(net: float) -> float:
    """VAT due on `net` in region FT (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_pw(net: float) -> float:
    """VAT due on `net` in region PW (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_yy(net: float) -> float:
    """VAT due on `net` in region YY (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ag(net: float) -> float:
    """VAT due on `net` in region AG (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_uz(net: float) -> float:
    """VAT due on `net` in region UZ (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ov(net: float) -> float:
    """VAT due on `net` in region OV (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ho(net: float) -> float:
    """VAT due on `net` in region HO (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_rn(net: float) -> float:
    """VAT due on `net` in region RN (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_el(net: float) -> float:
    """VAT due on `net` in region EL (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ki(net: float) -> float:
    """VAT due on `net` in region KI (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_wa(net: float) -> float:
    """VAT due on `net` in region WA (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_wm(net: float) -> float:
    """VAT due on `net` in region WM (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_tu(net: float) -> float:
    """VAT due on `net` in region TU (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_df(net: float) -> float:
    """VAT due on `net` in region DF (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ru(net: float) -> float:
    """VAT due on `net` in region RU (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_li(net: float) -> float:
    """VAT due on `net` in region LI (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_qi(net: float) -> float:
    """VAT due on `net` in region QI (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_gi(net: float) -> float:
    """VAT due on `net` in region GI (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_iq(net: float) -> float:
    """VAT due on `net` in region IQ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_fl(net: float) -> float:
    """VAT due on `net` in region FL (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_zq(net: float) -> float:
    """VAT due on `net` in region ZQ (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_pe(net: float) -> float:
    """VAT due on `net` in region PE (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_rg(net: float) -> float:
    """VAT due on `net` in region RG (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_pm(net: float) -> float:
    """VAT due on `net` in region PM (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ky(net: float) -> float:
    """VAT due on `net` in region KY (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_cm(net: float) -> float:
    """VAT due on `net` in region CM (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_vu(net: float) -> float:
    """VAT due on `net` in region VU (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_qg(net: float) -> float:
    """VAT due on `net` in region QG (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_wf(net: float) -> float:
    """VAT due on `net` in region WF (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_cb(net: float) -> float:
    """VAT due on `net` in region CB (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_mk(net: float) -> float:
    """VAT due on `net` in region MK (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_hb(net: float) -> float:
    """VAT due on `net` in region HB (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_qq(net: float) -> float:
    """VAT due on `net` in region QQ (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_eg(net: float) -> float:
    """VAT due on `net` in region EG (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_rl(net: float) -> float:
    """VAT due on `net` in region RL (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ta(net: float) -> float:
    """VAT due on `net` in region TA (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_qk(net: float) -> float:
    """VAT due on `net` in region QK (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ad(net: float) -> float:
    """VAT due on `net` in region AD (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_qv(net: float) -> float:
    """VAT due on `net` in region QV (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_bz(net: float) -> float:
    """VAT due on `net` in region BZ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ds(net: float) -> float:
    """VAT due on `net` in region DS (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_jk(net: float) -> float:
    """VAT due on `net` in region JK (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ns(net: float) -> float:
    """VAT due on `net` in region NS (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_tq(net: float) -> float:
    """VAT due on `net` in region TQ (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_xr(net: float) -> float:
    """VAT due on `net` in region XR (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_kk(net: float) -> float:
    """VAT due on `net` in region KK (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_vz(net: float) -> float:
    """VAT due on `net` in region VZ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_xb(net: float) -> float:
    """VAT due on `net` in region XB (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_hz(net: float) -> float:
    """VAT due on `net` in region HZ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_qu(net: float) -> float:
    """VAT due on `net` in region QU (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_kv(net: float) -> float:
    """VAT due on `net` in region KV (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_ja(net: float) -> float:
    """VAT due on `net` in region JA (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_bd(net: float) -> float:
    """VAT due on `net` in region BD (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_kj(net: float) -> float:
    """VAT due on `net` in region KJ (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_ak(net: float) -> float:
    """VAT due on `net` in region AK (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_dd(net: float) -> float:
    """VAT due on `net` in region DD (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_ok(net: float) -> float:
    """VAT due on `net` in region OK (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ff(net: float) -> float:
    """VAT due on `net` in region FF (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_pj(net: float) -> float:
    """VAT due on `net` in region PJ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_nm(net: float) -> float:
    """VAT due on `net` in region NM (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_le(net: float) -> float:
    """VAT due on `net` in region LE (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_hr(net: float) -> float:
    """VAT due on `net` in region HR (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ht(net: float) -> float:
    """VAT due on `net` in region HT (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_lb(net: float) -> float:
    """VAT due on `net` in region LB (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_qr(net: float) -> float:
    """VAT due on `net` in region QR (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_gc(net: float) -> float:
    """VAT due on `net` in region GC (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_yj(net: float) -> float:
    """VAT due on `net` in region YJ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ih(net: float) -> float:
    """VAT due on `net` in region IH (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ed(net: float) -> float:
    """VAT due on `net` in region ED (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_rp(net: float) -> float:
    """VAT due on `net` in region RP (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_kz(net: float) -> float:
    """VAT due on `net` in region KZ (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_fq(net: float) -> float:
    """VAT due on `net` in region FQ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_mc(net: float) -> float:
    """VAT due on `net` in region MC (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_vk(net: float) -> float:
    """VAT due on `net` in region VK (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_gm(net: float) -> float:
    """VAT due on `net` in region GM (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ev(net: float) -> float:
    """VAT due on `net` in region EV (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_so(net: float) -> float:
    """VAT due on `net` in region SO (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_nu(net: float) -> float:
    """VAT due on `net` in region NU (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_oz(net: float) -> float:
    """VAT due on `net` in region OZ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_vo(net: float) -> float:
    """VAT due on `net` in region VO (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_lg(net: float) -> float:
    """VAT due on `net` in region LG (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_jw(net: float) -> float:
    """VAT due on `net` in region JW (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ac(net: float) -> float:
    """VAT due on `net` in region AC (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_de(net: float) -> float:
    """VAT due on `net` in region DE (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_oy(net: float) -> float:
    """VAT due on `net` in region OY (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_yc(net: float) -> float:
    """VAT due on `net` in region YC (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_gs(net: float) -> float:
    """VAT due on `net` in region GS (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_pz(net: float) -> float:
    """VAT due on `net` in region PZ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ui(net: float) -> float:
    """VAT due on `net` in region UI (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ue(net: float) -> float:
    """VAT due on `net` in region UE (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ay(net: float) -> float:
    """VAT due on `net` in region AY (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_fs(net: float) -> float:
    """VAT due on `net` in region FS (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_zj(net: float) -> float:
    """VAT due on `net` in region ZJ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_rh(net: float) -> float:
    """VAT due on `net` in region RH (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_sw(net: float) -> float:
    """VAT due on `net` in region SW (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_gz(net: float) -> float:
    """VAT due on `net` in region GZ (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_kx(net: float) -> float:
    """VAT due on `net` in region KX (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_mo(net: float) -> float:
    """VAT due on `net` in region MO (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_rw(net: float) -> float:
    """VAT due on `net` in region RW (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_fy(net: float) -> float:
    """VAT due on `net` in region FY (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_or(net: float) -> float:
    """VAT due on `net` in region OR (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_zn(net: float) -> float:
    """VAT due on `net` in region ZN (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_iy(net: float) -> float:
    """VAT due on `net` in region IY (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_uq(net: float) -> float:
    """VAT due on `net` in region UQ (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_iv(net: float) -> float:
    """VAT due on `net` in region IV (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_js(net: float) -> float:
    """VAT due on `net` in region JS (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_bt(net: float) -> float:
    """VAT due on `net` in region BT (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_lo(net: float) -> float:
    """VAT due on `net` in region LO (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_zz(net: float) -> float:
    """VAT due on `net` in region ZZ (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def shipping_cost(weight_kg: float, express: bool = False) -> float:
    """The cost of shipping a parcel of `weight_kg`, in euros.

    4.90 up to 2 kg, then 1.10 per started kilogram above 2 kg; express doubles the price.
    """
    if weight_kg <= 0:
        raise ValueError("weight must be positive")
    cost = 4.90
    if weight_kg > 2:
        cost += 1.10 * int(weight_kg - 2)
    if express:
        cost += 2
    return round(cost, 2)


def vat_ld(net: float) -> float:
    """VAT due on `net` in region LD (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_sx(net: float) -> float:
    """VAT due on `net` in region SX (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_hl(net: float) -> float:
    """VAT due on `net` in region HL (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_nl(net: float) -> float:
    """VAT due on `net` in region NL (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ex(net: float) -> float:
    """VAT due on `net` in region EX (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_eb(net: float) -> float:
    """VAT due on `net` in region EB (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_rt(net: float) -> float:
    """VAT due on `net` in region RT (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_uy(net: float) -> float:
    """VAT due on `net` in region UY (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_zv(net: float) -> float:
    """VAT due on `net` in region ZV (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_qw(net: float) -> float:
    """VAT due on `net` in region QW (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_hm(net: float) -> float:
    """VAT due on `net` in region HM (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_lq(net: float) -> float:
    """VAT due on `net` in region LQ (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ia(net: float) -> float:
    """VAT due on `net` in region IA (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_kf(net: float) -> float:
    """VAT due on `net` in region KF (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_pf(net: float) -> float:
    """VAT due on `net` in region PF (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_qt(net: float) -> float:
    """VAT due on `net` in region QT (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_fw(net: float) -> float:
    """VAT due on `net` in region FW (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_cw(net: float) -> float:
    """VAT due on `net` in region CW (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_wz(net: float) -> float:
    """VAT due on `net` in region WZ (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_sk(net: float) -> float:
    """VAT due on `net` in region SK (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_hf(net: float) -> float:
    """VAT due on `net` in region HF (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_dl(net: float) -> float:
    """VAT due on `net` in region DL (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_ca(net: float) -> float:
    """VAT due on `net` in region CA (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_kn(net: float) -> float:
    """VAT due on `net` in region KN (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_yx(net: float) -> float:
    """VAT due on `net` in region YX (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_dh(net: float) -> float:
    """VAT due on `net` in region DH (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_tr(net: float) -> float:
    """VAT due on `net` in region TR (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ie(net: float) -> float:
    """VAT due on `net` in region IE (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_xk(net: float) -> float:
    """VAT due on `net` in region XK (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_mq(net: float) -> float:
    """VAT due on `net` in region MQ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_da(net: float) -> float:
    """VAT due on `net` in region DA (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_rc(net: float) -> float:
    """VAT due on `net` in region RC (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_fo(net: float) -> float:
    """VAT due on `net` in region FO (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ao(net: float) -> float:
    """VAT due on `net` in region AO (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_vm(net: float) -> float:
    """VAT due on `net` in region VM (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_nc(net: float) -> float:
    """VAT due on `net` in region NC (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_lt(net: float) -> float:
    """VAT due on `net` in region LT (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_mg(net: float) -> float:
    """VAT due on `net` in region MG (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_jd(net: float) -> float:
    """VAT due on `net` in region JD (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_zf(net: float) -> float:
    """VAT due on `net` in region ZF (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ju(net: float) -> float:
    """VAT due on `net` in region JU (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_db(net: float) -> float:
    """VAT due on `net` in region DB (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_og(net: float) -> float:
    """VAT due on `net` in region OG (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_km(net: float) -> float:
    """VAT due on `net` in region KM (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_dg(net: float) -> float:
    """VAT due on `net` in region DG (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_in(net: float) -> float:
    """VAT due on `net` in region IN (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_zp(net: float) -> float:
    """VAT due on `net` in region ZP (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_jt(net: float) -> float:
    """VAT due on `net` in region JT (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_vl(net: float) -> float:
    """VAT due on `net` in region VL (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_xi(net: float) -> float:
    """VAT due on `net` in region XI (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_lj(net: float) -> float:
    """VAT due on `net` in region LJ (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_cr(net: float) -> float:
    """VAT due on `net` in region CR (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ph(net: float) -> float:
    """VAT due on `net` in region PH (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_ec(net: float) -> float:
    """VAT due on `net` in region EC (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_lx(net: float) -> float:
    """VAT due on `net` in region LX (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_az(net: float) -> float:
    """VAT due on `net` in region AZ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_zo(net: float) -> float:
    """VAT due on `net` in region ZO (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_qp(net: float) -> float:
    """VAT due on `net` in region QP (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ga(net: float) -> float:
    """VAT due on `net` in region GA (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ge(net: float) -> float:
    """VAT due on `net` in region GE (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_xj(net: float) -> float:
    """VAT due on `net` in region XJ (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_ba(net: float) -> float:
    """VAT due on `net` in region BA (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_pd(net: float) -> float:
    """VAT due on `net` in region PD (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_hd(net: float) -> float:
    """VAT due on `net` in region HD (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_uh(net: float) -> float:
    """VAT due on `net` in region UH (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_ln(net: float) -> float:
    """VAT due on `net` in region LN (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_fe(net: float) -> float:
    """VAT due on `net` in region FE (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_tp(net: float) -> float:
    """VAT due on `net` in region TP (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_vn(net: float) -> float:
    """VAT due on `net` in region VN (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_dy(net: float) -> float:
    """VAT due on `net` in region DY (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_jh(net: float) -> float:
    """VAT due on `net` in region JH (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_xv(net: float) -> float:
    """VAT due on `net` in region XV (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ll(net: float) -> float:
    """VAT due on `net` in region LL (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_wi(net: float) -> float:
    """VAT due on `net` in region WI (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_tc(net: float) -> float:
    """VAT due on `net` in region TC (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_vj(net: float) -> float:
    """VAT due on `net` in region VJ (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ek(net: float) -> float:
    """VAT due on `net` in region EK (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_sj(net: float) -> float:
    """VAT due on `net` in region SJ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ya(net: float) -> float:
    """VAT due on `net` in region YA (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_xw(net: float) -> float:
    """VAT due on `net` in region XW (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_av(net: float) -> float:
    """VAT due on `net` in region AV (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_yo(net: float) -> float:
    """VAT due on `net` in region YO (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_nq(net: float) -> float:
    """VAT due on `net` in region NQ (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ve(net: float) -> float:
    """VAT due on `net` in region VE (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_yq(net: float) -> float:
    """VAT due on `net` in region YQ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_yh(net: float) -> float:
    """VAT due on `net` in region YH (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_yr(net: float) -> float:
    """VAT due on `net` in region YR (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_oh(net: float) -> float:
    """VAT due on `net` in region OH (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_zr(net: float) -> float:
    """VAT due on `net` in region ZR (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_lh(net: float) -> float:
    """VAT due on `net` in region LH (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ei(net: float) -> float:
    """VAT due on `net` in region EI (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_bq(net: float) -> float:
    """VAT due on `net` in region BQ (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_cs(net: float) -> float:
    """VAT due on `net` in region CS (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_va(net: float) -> float:
    """VAT due on `net` in region VA (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_mm(net: float) -> float:
    """VAT due on `net` in region MM (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_qd(net: float) -> float:
    """VAT due on `net` in region QD (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_pt(net: float) -> float:
    """VAT due on `net` in region PT (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_lm(net: float) -> float:
    """VAT due on `net` in region LM (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_gh(net: float) -> float:
    """VAT due on `net` in region GH (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ty(net: float) -> float:
    """VAT due on `net` in region TY (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_jb(net: float) -> float:
    """VAT due on `net` in region JB (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_tx(net: float) -> float:
    """VAT due on `net` in region TX (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_il(net: float) -> float:
    """VAT due on `net` in region IL (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_xd(net: float) -> float:
    """VAT due on `net` in region XD (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ik(net: float) -> float:
    """VAT due on `net` in region IK (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_yl(net: float) -> float:
    """VAT due on `net` in region YL (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_ic(net: float) -> float:
    """VAT due on `net` in region IC (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ix(net: float) -> float:
    """VAT due on `net` in region IX (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_lk(net: float) -> float:
    """VAT due on `net` in region LK (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_nr(net: float) -> float:
    """VAT due on `net` in region NR (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_xf(net: float) -> float:
    """VAT due on `net` in region XF (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_yz(net: float) -> float:
    """VAT due on `net` in region YZ (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_hy(net: float) -> float:
    """VAT due on `net` in region HY (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_fh(net: float) -> float:
    """VAT due on `net` in region FH (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_up(net: float) -> float:
    """VAT due on `net` in region UP (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_oq(net: float) -> float:
    """VAT due on `net` in region OQ (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_cz(net: float) -> float:
    """VAT due on `net` in region CZ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_lp(net: float) -> float:
    """VAT due on `net` in region LP (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_tv(net: float) -> float:
    """VAT due on `net` in region TV (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_jo(net: float) -> float:
    """VAT due on `net` in region JO (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_tt(net: float) -> float:
    """VAT due on `net` in region TT (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_nh(net: float) -> float:
    """VAT due on `net` in region NH (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_yp(net: float) -> float:
    """VAT due on `net` in region YP (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ws(net: float) -> float:
    """VAT due on `net` in region WS (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_ax(net: float) -> float:
    """VAT due on `net` in region AX (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_bp(net: float) -> float:
    """VAT due on `net` in region BP (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_vi(net: float) -> float:
    """VAT due on `net` in region VI (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_zm(net: float) -> float:
    """VAT due on `net` in region ZM (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_ah(net: float) -> float:
    """VAT due on `net` in region AH (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_bm(net: float) -> float:
    """VAT due on `net` in region BM (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_fg(net: float) -> float:
    """VAT due on `net` in region FG (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_lc(net: float) -> float:
    """VAT due on `net` in region LC (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_nt(net: float) -> float:
    """VAT due on `net` in region NT (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_eq(net: float) -> float:
    """VAT due on `net` in region EQ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_rj(net: float) -> float:
    """VAT due on `net` in region RJ (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_kg(net: float) -> float:
    """VAT due on `net` in region KG (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_cx(net: float) -> float:
    """VAT due on `net` in region CX (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_rq(net: float) -> float:
    """VAT due on `net` in region RQ (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_jj(net: float) -> float:
    """VAT due on `net` in region JJ (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_fi(net: float) -> float:
    """VAT due on `net` in region FI (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_zb(net: float) -> float:
    """VAT due on `net` in region ZB (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_hj(net: float) -> float:
    """VAT due on `net` in region HJ (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_bj(net: float) -> float:
    """VAT due on `net` in region BJ (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_eu(net: float) -> float:
    """VAT due on `net` in region EU (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_sv(net: float) -> float:
    """VAT due on `net` in region SV (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_em(net: float) -> float:
    """VAT due on `net` in region EM (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_jq(net: float) -> float:
    """VAT due on `net` in region JQ (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_qc(net: float) -> float:
    """VAT due on `net` in region QC (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_xa(net: float) -> float:
    """VAT due on `net` in region XA (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_sh(net: float) -> float:
    """VAT due on `net` in region SH (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ys(net: float) -> float:
    """VAT due on `net` in region YS (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_io(net: float) -> float:
    """VAT due on `net` in region IO (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_jr(net: float) -> float:
    """VAT due on `net` in region JR (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_sc(net: float) -> float:
    """VAT due on `net` in region SC (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_ez(net: float) -> float:
    """VAT due on `net` in region EZ (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_iu(net: float) -> float:
    """VAT due on `net` in region IU (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_jm(net: float) -> float:
    """VAT due on `net` in region JM (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_zk(net: float) -> float:
    """VAT due on `net` in region ZK (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_uj(net: float) -> float:
    """VAT due on `net` in region UJ (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ug(net: float) -> float:
    """VAT due on `net` in region UG (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_yt(net: float) -> float:
    """VAT due on `net` in region YT (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_wu(net: float) -> float:
    """VAT due on `net` in region WU (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_gp(net: float) -> float:
    """VAT due on `net` in region GP (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_sn(net: float) -> float:
    """VAT due on `net` in region SN (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_tw(net: float) -> float:
    """VAT due on `net` in region TW (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_nf(net: float) -> float:
    """VAT due on `net` in region NF (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_kq(net: float) -> float:
    """VAT due on `net` in region KQ (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ro(net: float) -> float:
    """VAT due on `net` in region RO (8%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 8 / 100, 2)


def vat_hu(net: float) -> float:
    """VAT due on `net` in region HU (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_qz(net: float) -> float:
    """VAT due on `net` in region QZ (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_xh(net: float) -> float:
    """VAT due on `net` in region XH (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ww(net: float) -> float:
    """VAT due on `net` in region WW (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_hp(net: float) -> float:
    """VAT due on `net` in region HP (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_sr(net: float) -> float:
    """VAT due on `net` in region SR (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_wh(net: float) -> float:
    """VAT due on `net` in region WH (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_et(net: float) -> float:
    """VAT due on `net` in region ET (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_gk(net: float) -> float:
    """VAT due on `net` in region GK (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_xz(net: float) -> float:
    """VAT due on `net` in region XZ (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_fb(net: float) -> float:
    """VAT due on `net` in region FB (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_cq(net: float) -> float:
    """VAT due on `net` in region CQ (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_ls(net: float) -> float:
    """VAT due on `net` in region LS (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_bn(net: float) -> float:
    """VAT due on `net` in region BN (19%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 19 / 100, 2)


def vat_ul(net: float) -> float:
    """VAT due on `net` in region UL (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_oa(net: float) -> float:
    """VAT due on `net` in region OA (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_mi(net: float) -> float:
    """VAT due on `net` in region MI (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_by(net: float) -> float:
    """VAT due on `net` in region BY (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ef(net: float) -> float:
    """VAT due on `net` in region EF (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ss(net: float) -> float:
    """VAT due on `net` in region SS (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_fa(net: float) -> float:
    """VAT due on `net` in region FA (21%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 21 / 100, 2)


def vat_al(net: float) -> float:
    """VAT due on `net` in region AL (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_gt(net: float) -> float:
    """VAT due on `net` in region GT (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_xm(net: float) -> float:
    """VAT due on `net` in region XM (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_ce(net: float) -> float:
    """VAT due on `net` in region CE (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_zi(net: float) -> float:
    """VAT due on `net` in region ZI (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_mr(net: float) -> float:
    """VAT due on `net` in region MR (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_uu(net: float) -> float:
    """VAT due on `net` in region UU (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_kp(net: float) -> float:
    """VAT due on `net` in region KP (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_rs(net: float) -> float:
    """VAT due on `net` in region RS (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_aa(net: float) -> float:
    """VAT due on `net` in region AA (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_ea(net: float) -> float:
    """VAT due on `net` in region EA (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_bl(net: float) -> float:
    """VAT due on `net` in region BL (12%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 12 / 100, 2)


def vat_uo(net: float) -> float:
    """VAT due on `net` in region UO (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_an(net: float) -> float:
    """VAT due on `net` in region AN (23%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 23 / 100, 2)


def vat_wp(net: float) -> float:
    """VAT due on `net` in region WP (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_ou(net: float) -> float:
    """VAT due on `net` in region OU (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_bv(net: float) -> float:
    """VAT due on `net` in region BV (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_fz(net: float) -> float:
    """VAT due on `net` in region FZ (7%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 7 / 100, 2)


def vat_ey(net: float) -> float:
    """VAT due on `net` in region EY (17%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 17 / 100, 2)


def vat_jc(net: float) -> float:
    """VAT due on `net` in region JC (5%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 5 / 100, 2)


def vat_lf(net: float) -> float:
    """VAT due on `net` in region LF (20%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 20 / 100, 2)


def vat_op(net: float) -> float:
    """VAT due on `net` in region OP (15%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 15 / 100, 2)


def vat_uv(net: float) -> float:
    """VAT due on `net` in region UV (25%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 25 / 100, 2)


def vat_fm(net: float) -> float:
    """VAT due on `net` in region FM (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_ab(net: float) -> float:
    """VAT due on `net` in region AB (10%)."""
    if net < 0:
        raise ValueError("net must not be negative")
    return round(net * 10 / 100, 2)


def vat_for(region: str, net: float) -> float:
    """VAT due on `net` in `region` (a two-letter code)."""
    return globals()[f"vat_{region.lower()}"](net)
