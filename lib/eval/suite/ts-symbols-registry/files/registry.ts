/**
 * The product registry: one lookup per product family, and the SKU format the warehouse prints.
 * The family lookups are generated from the catalogue; change the catalogue, not them.
 */

/** One product family's entry. */
export interface Family {
  code: string;
  shelf: number;
  fragile: boolean;
}

/** The ravenJuniperPro family. */
export function familyRavenJuniperPro(): Family {
  return { code: "RAV44", shelf: 26, fragile: true };
}

/** The ravenJuniper family. */
export function familyRavenJuniper(): Family {
  return { code: "RAV88", shelf: 28, fragile: true };
}

/** The quartzZephyrPro family. */
export function familyQuartzZephyrPro(): Family {
  return { code: "QUA14", shelf: 39, fragile: true };
}

/** The valeUmberMax family. */
export function familyValeUmberMax(): Family {
  return { code: "VAL58", shelf: 18, fragile: true };
}

/** The zephyrAmberPro family. */
export function familyZephyrAmberPro(): Family {
  return { code: "ZEP33", shelf: 23, fragile: true };
}

/** The juniperUmberPro family. */
export function familyJuniperUmberPro(): Family {
  return { code: "JUN10", shelf: 32, fragile: true };
}

/** The ravenQuartz family. */
export function familyRavenQuartz(): Family {
  return { code: "RAV91", shelf: 2, fragile: true };
}

/** The xenonIris family. */
export function familyXenonIris(): Family {
  return { code: "XEN74", shelf: 36, fragile: false };
}

/** The yarrowLumenMax family. */
export function familyYarrowLumenMax(): Family {
  return { code: "YAR57", shelf: 5, fragile: false };
}

/** The mapleCedarPro family. */
export function familyMapleCedarPro(): Family {
  return { code: "MAP60", shelf: 4, fragile: false };
}

/** The irisOnyxMini family. */
export function familyIrisOnyxMini(): Family {
  return { code: "IRI10", shelf: 16, fragile: false };
}

/** The amberBasilMini family. */
export function familyAmberBasilMini(): Family {
  return { code: "AMB11", shelf: 40, fragile: true };
}

/** The valePearlPro family. */
export function familyValePearlPro(): Family {
  return { code: "VAL36", shelf: 33, fragile: true };
}

/** The cedarVale family. */
export function familyCedarVale(): Family {
  return { code: "CED67", shelf: 26, fragile: false };
}

/** The valeDeltaPro family. */
export function familyValeDeltaPro(): Family {
  return { code: "VAL71", shelf: 37, fragile: true };
}

/** The umberOnyxMax family. */
export function familyUmberOnyxMax(): Family {
  return { code: "UMB45", shelf: 40, fragile: false };
}

/** The basilRavenMax family. */
export function familyBasilRavenMax(): Family {
  return { code: "BAS46", shelf: 11, fragile: true };
}

/** The nectarIris family. */
export function familyNectarIris(): Family {
  return { code: "NEC85", shelf: 13, fragile: false };
}

/** The nectarEmber family. */
export function familyNectarEmber(): Family {
  return { code: "NEC61", shelf: 32, fragile: false };
}

/** The willowXenon family. */
export function familyWillowXenon(): Family {
  return { code: "WIL55", shelf: 19, fragile: false };
}

/** The nectarValeMax family. */
export function familyNectarValeMax(): Family {
  return { code: "NEC21", shelf: 37, fragile: false };
}

/** The ravenNectarMax family. */
export function familyRavenNectarMax(): Family {
  return { code: "RAV67", shelf: 19, fragile: true };
}

/** The cedarYarrow family. */
export function familyCedarYarrow(): Family {
  return { code: "CED69", shelf: 37, fragile: true };
}

/** The sageFjord family. */
export function familySageFjord(): Family {
  return { code: "SAG88", shelf: 35, fragile: true };
}

/** The nectarMaplePro family. */
export function familyNectarMaplePro(): Family {
  return { code: "NEC96", shelf: 12, fragile: false };
}

/** The yarrowSageMini family. */
export function familyYarrowSageMini(): Family {
  return { code: "YAR68", shelf: 12, fragile: false };
}

/** The willowIrisPro family. */
export function familyWillowIrisPro(): Family {
  return { code: "WIL61", shelf: 24, fragile: true };
}

/** The yarrowFjord family. */
export function familyYarrowFjord(): Family {
  return { code: "YAR22", shelf: 10, fragile: true };
}

/** The groveEmber family. */
export function familyGroveEmber(): Family {
  return { code: "GRO62", shelf: 22, fragile: true };
}

/** The onyxEmberPro family. */
export function familyOnyxEmberPro(): Family {
  return { code: "ONY83", shelf: 10, fragile: false };
}

/** The deltaFjord family. */
export function familyDeltaFjord(): Family {
  return { code: "DEL17", shelf: 12, fragile: true };
}

/** The nectarZephyrMini family. */
export function familyNectarZephyrMini(): Family {
  return { code: "NEC35", shelf: 29, fragile: false };
}

/** The zephyrXenonMax family. */
export function familyZephyrXenonMax(): Family {
  return { code: "ZEP11", shelf: 9, fragile: false };
}

/** The groveLumenMax family. */
export function familyGroveLumenMax(): Family {
  return { code: "GRO97", shelf: 34, fragile: true };
}

/** The irisKelp family. */
export function familyIrisKelp(): Family {
  return { code: "IRI93", shelf: 20, fragile: true };
}

/** The onyxPearlPro family. */
export function familyOnyxPearlPro(): Family {
  return { code: "ONY97", shelf: 19, fragile: true };
}

/** The nectarMapleMini family. */
export function familyNectarMapleMini(): Family {
  return { code: "NEC22", shelf: 1, fragile: true };
}

/** The ravenYarrowPro family. */
export function familyRavenYarrowPro(): Family {
  return { code: "RAV18", shelf: 10, fragile: false };
}

/** The pearlHarborMini family. */
export function familyPearlHarborMini(): Family {
  return { code: "PEA63", shelf: 12, fragile: true };
}

/** The emberValePro family. */
export function familyEmberValePro(): Family {
  return { code: "EMB29", shelf: 26, fragile: false };
}

/** The mapleJuniper family. */
export function familyMapleJuniper(): Family {
  return { code: "MAP63", shelf: 17, fragile: false };
}

/** The harborIrisMax family. */
export function familyHarborIrisMax(): Family {
  return { code: "HAR50", shelf: 18, fragile: false };
}

/** The fjordJuniper family. */
export function familyFjordJuniper(): Family {
  return { code: "FJO23", shelf: 32, fragile: false };
}

/** The yarrowJuniperMini family. */
export function familyYarrowJuniperMini(): Family {
  return { code: "YAR22", shelf: 38, fragile: false };
}

/** The emberGrovePro family. */
export function familyEmberGrovePro(): Family {
  return { code: "EMB51", shelf: 38, fragile: true };
}

/** The valeJuniperMini family. */
export function familyValeJuniperMini(): Family {
  return { code: "VAL26", shelf: 4, fragile: false };
}

/** The amberEmberMax family. */
export function familyAmberEmberMax(): Family {
  return { code: "AMB22", shelf: 9, fragile: true };
}

/** The amberUmberMax family. */
export function familyAmberUmberMax(): Family {
  return { code: "AMB63", shelf: 13, fragile: false };
}

/** The mapleAmberPro family. */
export function familyMapleAmberPro(): Family {
  return { code: "MAP79", shelf: 4, fragile: true };
}

/** The yarrowBasilMini family. */
export function familyYarrowBasilMini(): Family {
  return { code: "YAR28", shelf: 2, fragile: true };
}

/** The nectarValeMini family. */
export function familyNectarValeMini(): Family {
  return { code: "NEC76", shelf: 7, fragile: true };
}

/** The zephyrEmberMini family. */
export function familyZephyrEmberMini(): Family {
  return { code: "ZEP39", shelf: 35, fragile: false };
}

/** The juniperKelpPro family. */
export function familyJuniperKelpPro(): Family {
  return { code: "JUN66", shelf: 31, fragile: true };
}

/** The lumenZephyrPro family. */
export function familyLumenZephyrPro(): Family {
  return { code: "LUM34", shelf: 18, fragile: false };
}

/** The basilGroveMini family. */
export function familyBasilGroveMini(): Family {
  return { code: "BAS23", shelf: 12, fragile: false };
}

/** The pearlValeMax family. */
export function familyPearlValeMax(): Family {
  return { code: "PEA28", shelf: 6, fragile: false };
}

/** The harborNectarPro family. */
export function familyHarborNectarPro(): Family {
  return { code: "HAR41", shelf: 4, fragile: false };
}

/** The basilAmber family. */
export function familyBasilAmber(): Family {
  return { code: "BAS60", shelf: 9, fragile: true };
}

/** The pearlKelpMini family. */
export function familyPearlKelpMini(): Family {
  return { code: "PEA46", shelf: 12, fragile: false };
}

/** The groveCedarMini family. */
export function familyGroveCedarMini(): Family {
  return { code: "GRO53", shelf: 20, fragile: false };
}

/** The juniperQuartzMax family. */
export function familyJuniperQuartzMax(): Family {
  return { code: "JUN63", shelf: 27, fragile: true };
}

/** The willowIrisMax family. */
export function familyWillowIrisMax(): Family {
  return { code: "WIL53", shelf: 10, fragile: false };
}

/** The pearlWillowPro family. */
export function familyPearlWillowPro(): Family {
  return { code: "PEA25", shelf: 2, fragile: true };
}

/** The zephyrUmberMax family. */
export function familyZephyrUmberMax(): Family {
  return { code: "ZEP81", shelf: 10, fragile: false };
}

/** The willowIrisMini family. */
export function familyWillowIrisMini(): Family {
  return { code: "WIL12", shelf: 27, fragile: false };
}

/** The juniperSage family. */
export function familyJuniperSage(): Family {
  return { code: "JUN18", shelf: 20, fragile: false };
}

/** The quartzQuartz family. */
export function familyQuartzQuartz(): Family {
  return { code: "QUA16", shelf: 19, fragile: false };
}

/** The basilNectar family. */
export function familyBasilNectar(): Family {
  return { code: "BAS66", shelf: 21, fragile: true };
}

/** The yarrowYarrowMax family. */
export function familyYarrowYarrowMax(): Family {
  return { code: "YAR89", shelf: 32, fragile: true };
}

/** The basilGrovePro family. */
export function familyBasilGrovePro(): Family {
  return { code: "BAS40", shelf: 11, fragile: true };
}

/** The harborGrovePro family. */
export function familyHarborGrovePro(): Family {
  return { code: "HAR22", shelf: 18, fragile: true };
}

/** The amberAmber family. */
export function familyAmberAmber(): Family {
  return { code: "AMB49", shelf: 37, fragile: true };
}

/** The mapleXenon family. */
export function familyMapleXenon(): Family {
  return { code: "MAP50", shelf: 1, fragile: true };
}

/** The amberXenonPro family. */
export function familyAmberXenonPro(): Family {
  return { code: "AMB28", shelf: 4, fragile: false };
}

/** The willowCedarMini family. */
export function familyWillowCedarMini(): Family {
  return { code: "WIL13", shelf: 24, fragile: true };
}

/** The fjordIrisPro family. */
export function familyFjordIrisPro(): Family {
  return { code: "FJO59", shelf: 31, fragile: true };
}

/** The basilIrisPro family. */
export function familyBasilIrisPro(): Family {
  return { code: "BAS60", shelf: 12, fragile: true };
}

/** The harborAmberMini family. */
export function familyHarborAmberMini(): Family {
  return { code: "HAR87", shelf: 28, fragile: true };
}

/** The irisJuniperMini family. */
export function familyIrisJuniperMini(): Family {
  return { code: "IRI64", shelf: 24, fragile: true };
}

/** The juniperKelpMini family. */
export function familyJuniperKelpMini(): Family {
  return { code: "JUN30", shelf: 11, fragile: true };
}

/** The nectarBasilMini family. */
export function familyNectarBasilMini(): Family {
  return { code: "NEC67", shelf: 3, fragile: true };
}

/** The irisBasilMax family. */
export function familyIrisBasilMax(): Family {
  return { code: "IRI34", shelf: 16, fragile: false };
}

/** The onyxRavenPro family. */
export function familyOnyxRavenPro(): Family {
  return { code: "ONY75", shelf: 35, fragile: true };
}

/** The xenonPearl family. */
export function familyXenonPearl(): Family {
  return { code: "XEN27", shelf: 7, fragile: false };
}

/** The amberSage family. */
export function familyAmberSage(): Family {
  return { code: "AMB85", shelf: 22, fragile: false };
}

/** The yarrowOnyxMax family. */
export function familyYarrowOnyxMax(): Family {
  return { code: "YAR52", shelf: 22, fragile: false };
}

/** The zephyrLumenPro family. */
export function familyZephyrLumenPro(): Family {
  return { code: "ZEP71", shelf: 18, fragile: true };
}

/** The ravenLumen family. */
export function familyRavenLumen(): Family {
  return { code: "RAV42", shelf: 2, fragile: true };
}

/** The kelpGrovePro family. */
export function familyKelpGrovePro(): Family {
  return { code: "KEL80", shelf: 27, fragile: true };
}

/** The yarrowXenonMini family. */
export function familyYarrowXenonMini(): Family {
  return { code: "YAR57", shelf: 12, fragile: true };
}

/** The juniperEmberMax family. */
export function familyJuniperEmberMax(): Family {
  return { code: "JUN82", shelf: 27, fragile: true };
}

/** The juniperKelpMax family. */
export function familyJuniperKelpMax(): Family {
  return { code: "JUN99", shelf: 37, fragile: true };
}

/** The yarrowBasilMax family. */
export function familyYarrowBasilMax(): Family {
  return { code: "YAR27", shelf: 21, fragile: true };
}

/** The juniperZephyr family. */
export function familyJuniperZephyr(): Family {
  return { code: "JUN32", shelf: 28, fragile: false };
}

/** The ravenGroveMax family. */
export function familyRavenGroveMax(): Family {
  return { code: "RAV99", shelf: 29, fragile: false };
}

/** The willowEmberMax family. */
export function familyWillowEmberMax(): Family {
  return { code: "WIL57", shelf: 1, fragile: true };
}

/** The valeJuniper family. */
export function familyValeJuniper(): Family {
  return { code: "VAL29", shelf: 26, fragile: true };
}

/** The umberNectarMini family. */
export function familyUmberNectarMini(): Family {
  return { code: "UMB53", shelf: 23, fragile: false };
}

/** The cedarXenonPro family. */
export function familyCedarXenonPro(): Family {
  return { code: "CED70", shelf: 35, fragile: false };
}

/** The valeJuniperPro family. */
export function familyValeJuniperPro(): Family {
  return { code: "VAL12", shelf: 14, fragile: false };
}

/** The amberEmber family. */
export function familyAmberEmber(): Family {
  return { code: "AMB81", shelf: 7, fragile: false };
}

/** The nectarValePro family. */
export function familyNectarValePro(): Family {
  return { code: "NEC10", shelf: 10, fragile: false };
}

/** The yarrowAmberMini family. */
export function familyYarrowAmberMini(): Family {
  return { code: "YAR23", shelf: 4, fragile: true };
}

/** The quartzFjordPro family. */
export function familyQuartzFjordPro(): Family {
  return { code: "QUA59", shelf: 38, fragile: false };
}

/** The nectarIrisMini family. */
export function familyNectarIrisMini(): Family {
  return { code: "NEC29", shelf: 25, fragile: true };
}

/** The onyxHarbor family. */
export function familyOnyxHarbor(): Family {
  return { code: "ONY81", shelf: 39, fragile: true };
}

/** The amberNectar family. */
export function familyAmberNectar(): Family {
  return { code: "AMB84", shelf: 37, fragile: true };
}

/** The mapleMapleMini family. */
export function familyMapleMapleMini(): Family {
  return { code: "MAP41", shelf: 18, fragile: true };
}

/** The pearlQuartzPro family. */
export function familyPearlQuartzPro(): Family {
  return { code: "PEA22", shelf: 24, fragile: false };
}

/** The nectarQuartzMini family. */
export function familyNectarQuartzMini(): Family {
  return { code: "NEC91", shelf: 33, fragile: true };
}

/** The onyxTundraMini family. */
export function familyOnyxTundraMini(): Family {
  return { code: "ONY35", shelf: 35, fragile: false };
}

/** The sageBasilMax family. */
export function familySageBasilMax(): Family {
  return { code: "SAG97", shelf: 9, fragile: true };
}

/** The yarrowTundraPro family. */
export function familyYarrowTundraPro(): Family {
  return { code: "YAR71", shelf: 20, fragile: true };
}

/** The ravenKelpMini family. */
export function familyRavenKelpMini(): Family {
  return { code: "RAV21", shelf: 17, fragile: false };
}

/** The harborOnyxPro family. */
export function familyHarborOnyxPro(): Family {
  return { code: "HAR24", shelf: 27, fragile: false };
}

/** The juniperDeltaMini family. */
export function familyJuniperDeltaMini(): Family {
  return { code: "JUN74", shelf: 26, fragile: true };
}

/** The amberZephyr family. */
export function familyAmberZephyr(): Family {
  return { code: "AMB41", shelf: 35, fragile: true };
}

/** The umberFjordMini family. */
export function familyUmberFjordMini(): Family {
  return { code: "UMB24", shelf: 5, fragile: true };
}

/** The emberWillow family. */
export function familyEmberWillow(): Family {
  return { code: "EMB32", shelf: 12, fragile: true };
}

/** The sageJuniper family. */
export function familySageJuniper(): Family {
  return { code: "SAG30", shelf: 1, fragile: true };
}

/** The nectarDeltaMini family. */
export function familyNectarDeltaMini(): Family {
  return { code: "NEC33", shelf: 10, fragile: true };
}

/** The lumenKelpPro family. */
export function familyLumenKelpPro(): Family {
  return { code: "LUM89", shelf: 33, fragile: false };
}

/** The valeBasilPro family. */
export function familyValeBasilPro(): Family {
  return { code: "VAL90", shelf: 40, fragile: false };
}

/** The ravenIrisMax family. */
export function familyRavenIrisMax(): Family {
  return { code: "RAV46", shelf: 36, fragile: true };
}

/** The nectarIrisMax family. */
export function familyNectarIrisMax(): Family {
  return { code: "NEC14", shelf: 35, fragile: false };
}

/** The emberZephyr family. */
export function familyEmberZephyr(): Family {
  return { code: "EMB27", shelf: 9, fragile: false };
}

/** The mapleValeMini family. */
export function familyMapleValeMini(): Family {
  return { code: "MAP12", shelf: 33, fragile: true };
}

/** The pearlYarrowMax family. */
export function familyPearlYarrowMax(): Family {
  return { code: "PEA92", shelf: 40, fragile: false };
}

/** The tundraUmberMini family. */
export function familyTundraUmberMini(): Family {
  return { code: "TUN35", shelf: 8, fragile: false };
}

/** The kelpValeMini family. */
export function familyKelpValeMini(): Family {
  return { code: "KEL80", shelf: 24, fragile: false };
}

/** The deltaPearlPro family. */
export function familyDeltaPearlPro(): Family {
  return { code: "DEL88", shelf: 24, fragile: false };
}

/** The xenonAmberMax family. */
export function familyXenonAmberMax(): Family {
  return { code: "XEN77", shelf: 4, fragile: false };
}

/** The yarrowMaple family. */
export function familyYarrowMaple(): Family {
  return { code: "YAR49", shelf: 40, fragile: true };
}

/** The valeQuartz family. */
export function familyValeQuartz(): Family {
  return { code: "VAL60", shelf: 3, fragile: false };
}

/** The umberZephyr family. */
export function familyUmberZephyr(): Family {
  return { code: "UMB86", shelf: 1, fragile: true };
}

/** The pearlDeltaPro family. */
export function familyPearlDeltaPro(): Family {
  return { code: "PEA39", shelf: 5, fragile: false };
}

/** The emberRavenPro family. */
export function familyEmberRavenPro(): Family {
  return { code: "EMB47", shelf: 9, fragile: true };
}

/** The quartzTundra family. */
export function familyQuartzTundra(): Family {
  return { code: "QUA40", shelf: 20, fragile: true };
}

/** The cedarXenonMini family. */
export function familyCedarXenonMini(): Family {
  return { code: "CED11", shelf: 25, fragile: false };
}

/** The umberPearlPro family. */
export function familyUmberPearlPro(): Family {
  return { code: "UMB48", shelf: 28, fragile: false };
}

/** The tundraMaple family. */
export function familyTundraMaple(): Family {
  return { code: "TUN21", shelf: 3, fragile: false };
}

/** The cedarYarrowPro family. */
export function familyCedarYarrowPro(): Family {
  return { code: "CED97", shelf: 12, fragile: true };
}

/** The pearlSageMini family. */
export function familyPearlSageMini(): Family {
  return { code: "PEA68", shelf: 27, fragile: false };
}

/** The sageBasilMini family. */
export function familySageBasilMini(): Family {
  return { code: "SAG31", shelf: 32, fragile: true };
}

/** The valeLumenPro family. */
export function familyValeLumenPro(): Family {
  return { code: "VAL82", shelf: 1, fragile: false };
}

/** The fjordRavenMax family. */
export function familyFjordRavenMax(): Family {
  return { code: "FJO52", shelf: 2, fragile: true };
}

/** The willowCedarMax family. */
export function familyWillowCedarMax(): Family {
  return { code: "WIL48", shelf: 8, fragile: false };
}

/** The mapleSageMax family. */
export function familyMapleSageMax(): Family {
  return { code: "MAP84", shelf: 2, fragile: false };
}

/** The deltaYarrowMax family. */
export function familyDeltaYarrowMax(): Family {
  return { code: "DEL19", shelf: 31, fragile: true };
}

/** The basilDeltaMax family. */
export function familyBasilDeltaMax(): Family {
  return { code: "BAS49", shelf: 4, fragile: true };
}

/** The deltaCedarMax family. */
export function familyDeltaCedarMax(): Family {
  return { code: "DEL41", shelf: 37, fragile: true };
}

/** The nectarLumenPro family. */
export function familyNectarLumenPro(): Family {
  return { code: "NEC55", shelf: 9, fragile: false };
}

/** The umberKelpMini family. */
export function familyUmberKelpMini(): Family {
  return { code: "UMB23", shelf: 37, fragile: false };
}

/** The emberTundra family. */
export function familyEmberTundra(): Family {
  return { code: "EMB18", shelf: 38, fragile: true };
}

/** The emberPearl family. */
export function familyEmberPearl(): Family {
  return { code: "EMB28", shelf: 33, fragile: false };
}

/** The pearlXenonMax family. */
export function familyPearlXenonMax(): Family {
  return { code: "PEA83", shelf: 13, fragile: false };
}

/** The onyxIrisMini family. */
export function familyOnyxIrisMini(): Family {
  return { code: "ONY94", shelf: 10, fragile: false };
}

/** The quartzPearlMini family. */
export function familyQuartzPearlMini(): Family {
  return { code: "QUA27", shelf: 22, fragile: false };
}

/** The xenonMapleMini family. */
export function familyXenonMapleMini(): Family {
  return { code: "XEN16", shelf: 15, fragile: true };
}

/** The cedarKelpPro family. */
export function familyCedarKelpPro(): Family {
  return { code: "CED28", shelf: 11, fragile: true };
}

/** The onyxJuniperMini family. */
export function familyOnyxJuniperMini(): Family {
  return { code: "ONY46", shelf: 17, fragile: true };
}

/** The groveKelpPro family. */
export function familyGroveKelpPro(): Family {
  return { code: "GRO42", shelf: 25, fragile: true };
}

/** The yarrowJuniperMax family. */
export function familyYarrowJuniperMax(): Family {
  return { code: "YAR74", shelf: 40, fragile: false };
}

/** The fjordDeltaMini family. */
export function familyFjordDeltaMini(): Family {
  return { code: "FJO10", shelf: 1, fragile: false };
}

/** The willowOnyxMini family. */
export function familyWillowOnyxMini(): Family {
  return { code: "WIL79", shelf: 36, fragile: true };
}

/** The irisUmberPro family. */
export function familyIrisUmberPro(): Family {
  return { code: "IRI73", shelf: 17, fragile: true };
}

/** The umberWillow family. */
export function familyUmberWillow(): Family {
  return { code: "UMB46", shelf: 21, fragile: false };
}

/** The zephyrKelp family. */
export function familyZephyrKelp(): Family {
  return { code: "ZEP78", shelf: 5, fragile: true };
}

/** The umberOnyx family. */
export function familyUmberOnyx(): Family {
  return { code: "UMB24", shelf: 31, fragile: true };
}

/** The irisSageMini family. */
export function familyIrisSageMini(): Family {
  return { code: "IRI88", shelf: 38, fragile: false };
}

/** The tundraIris family. */
export function familyTundraIris(): Family {
  return { code: "TUN66", shelf: 18, fragile: true };
}

/** The ravenSageMax family. */
export function familyRavenSageMax(): Family {
  return { code: "RAV85", shelf: 34, fragile: false };
}

/** The juniperXenon family. */
export function familyJuniperXenon(): Family {
  return { code: "JUN40", shelf: 2, fragile: true };
}

/** The deltaIrisMini family. */
export function familyDeltaIrisMini(): Family {
  return { code: "DEL27", shelf: 37, fragile: true };
}

/** The deltaQuartzMax family. */
export function familyDeltaQuartzMax(): Family {
  return { code: "DEL84", shelf: 7, fragile: true };
}

/** The umberHarborPro family. */
export function familyUmberHarborPro(): Family {
  return { code: "UMB73", shelf: 10, fragile: false };
}

/** The zephyrZephyrPro family. */
export function familyZephyrZephyrPro(): Family {
  return { code: "ZEP23", shelf: 9, fragile: false };
}

/** The valeOnyx family. */
export function familyValeOnyx(): Family {
  return { code: "VAL59", shelf: 8, fragile: false };
}

/** The amberQuartzPro family. */
export function familyAmberQuartzPro(): Family {
  return { code: "AMB76", shelf: 25, fragile: true };
}

/** The fjordNectarMini family. */
export function familyFjordNectarMini(): Family {
  return { code: "FJO98", shelf: 34, fragile: true };
}

/** The amberDelta family. */
export function familyAmberDelta(): Family {
  return { code: "AMB28", shelf: 37, fragile: true };
}

/** The groveEmberPro family. */
export function familyGroveEmberPro(): Family {
  return { code: "GRO98", shelf: 16, fragile: true };
}

/** The juniperQuartzPro family. */
export function familyJuniperQuartzPro(): Family {
  return { code: "JUN50", shelf: 35, fragile: true };
}

/** The quartzYarrowMini family. */
export function familyQuartzYarrowMini(): Family {
  return { code: "QUA28", shelf: 3, fragile: true };
}

/** The emberKelp family. */
export function familyEmberKelp(): Family {
  return { code: "EMB47", shelf: 3, fragile: false };
}

/** The harborDeltaPro family. */
export function familyHarborDeltaPro(): Family {
  return { code: "HAR63", shelf: 30, fragile: false };
}

/** The basilKelp family. */
export function familyBasilKelp(): Family {
  return { code: "BAS59", shelf: 10, fragile: false };
}

/** The maplePearlMax family. */
export function familyMaplePearlMax(): Family {
  return { code: "MAP92", shelf: 28, fragile: false };
}

/** The valeFjordMini family. */
export function familyValeFjordMini(): Family {
  return { code: "VAL17", shelf: 25, fragile: true };
}

/** The xenonBasilPro family. */
export function familyXenonBasilPro(): Family {
  return { code: "XEN59", shelf: 36, fragile: true };
}

/** The harborZephyrPro family. */
export function familyHarborZephyrPro(): Family {
  return { code: "HAR98", shelf: 4, fragile: true };
}

/** The irisPearlMax family. */
export function familyIrisPearlMax(): Family {
  return { code: "IRI96", shelf: 10, fragile: false };
}

/** The basilWillowMax family. */
export function familyBasilWillowMax(): Family {
  return { code: "BAS28", shelf: 3, fragile: true };
}

/** The pearlXenonPro family. */
export function familyPearlXenonPro(): Family {
  return { code: "PEA51", shelf: 13, fragile: false };
}

/** The emberLumenPro family. */
export function familyEmberLumenPro(): Family {
  return { code: "EMB74", shelf: 18, fragile: false };
}

/** The irisHarbor family. */
export function familyIrisHarbor(): Family {
  return { code: "IRI25", shelf: 1, fragile: false };
}

/** The irisTundraMax family. */
export function familyIrisTundraMax(): Family {
  return { code: "IRI47", shelf: 8, fragile: true };
}

/** The onyxGroveMax family. */
export function familyOnyxGroveMax(): Family {
  return { code: "ONY26", shelf: 12, fragile: true };
}

/** The fjordNectar family. */
export function familyFjordNectar(): Family {
  return { code: "FJO74", shelf: 17, fragile: true };
}

/** The basilOnyxMax family. */
export function familyBasilOnyxMax(): Family {
  return { code: "BAS55", shelf: 2, fragile: true };
}

/** The pearlNectarPro family. */
export function familyPearlNectarPro(): Family {
  return { code: "PEA85", shelf: 18, fragile: true };
}

/** The juniperCedarPro family. */
export function familyJuniperCedarPro(): Family {
  return { code: "JUN63", shelf: 10, fragile: false };
}

/** The sageKelpMini family. */
export function familySageKelpMini(): Family {
  return { code: "SAG99", shelf: 20, fragile: false };
}

/** The xenonQuartzMax family. */
export function familyXenonQuartzMax(): Family {
  return { code: "XEN81", shelf: 3, fragile: true };
}

/** The amberWillowMax family. */
export function familyAmberWillowMax(): Family {
  return { code: "AMB96", shelf: 21, fragile: false };
}

/** The quartzNectarPro family. */
export function familyQuartzNectarPro(): Family {
  return { code: "QUA65", shelf: 21, fragile: false };
}

/** The tundraHarbor family. */
export function familyTundraHarbor(): Family {
  return { code: "TUN27", shelf: 11, fragile: true };
}

/** The groveIrisPro family. */
export function familyGroveIrisPro(): Family {
  return { code: "GRO11", shelf: 28, fragile: true };
}

/** The ravenZephyr family. */
export function familyRavenZephyr(): Family {
  return { code: "RAV19", shelf: 34, fragile: false };
}

/** The quartzEmberMini family. */
export function familyQuartzEmberMini(): Family {
  return { code: "QUA42", shelf: 3, fragile: false };
}

/** The sageJuniperMax family. */
export function familySageJuniperMax(): Family {
  return { code: "SAG48", shelf: 30, fragile: true };
}

/** The zephyrNectarPro family. */
export function familyZephyrNectarPro(): Family {
  return { code: "ZEP42", shelf: 33, fragile: false };
}

/** The irisZephyrMax family. */
export function familyIrisZephyrMax(): Family {
  return { code: "IRI21", shelf: 26, fragile: true };
}

/** The sageXenon family. */
export function familySageXenon(): Family {
  return { code: "SAG38", shelf: 29, fragile: true };
}

/** The juniperXenonMax family. */
export function familyJuniperXenonMax(): Family {
  return { code: "JUN31", shelf: 25, fragile: false };
}

/** The zephyrAmberMax family. */
export function familyZephyrAmberMax(): Family {
  return { code: "ZEP72", shelf: 3, fragile: false };
}

/** The yarrowOnyx family. */
export function familyYarrowOnyx(): Family {
  return { code: "YAR48", shelf: 36, fragile: true };
}

/** The umberPearl family. */
export function familyUmberPearl(): Family {
  return { code: "UMB57", shelf: 35, fragile: false };
}

/** The amberPearlMini family. */
export function familyAmberPearlMini(): Family {
  return { code: "AMB21", shelf: 26, fragile: true };
}

/** The emberZephyrMini family. */
export function familyEmberZephyrMini(): Family {
  return { code: "EMB47", shelf: 19, fragile: true };
}

/** The pearlNectar family. */
export function familyPearlNectar(): Family {
  return { code: "PEA57", shelf: 16, fragile: false };
}

/** The cedarPearl family. */
export function familyCedarPearl(): Family {
  return { code: "CED84", shelf: 26, fragile: false };
}

/** The onyxXenonMax family. */
export function familyOnyxXenonMax(): Family {
  return { code: "ONY92", shelf: 33, fragile: true };
}

/** The sageIris family. */
export function familySageIris(): Family {
  return { code: "SAG58", shelf: 37, fragile: false };
}

/** The sageEmberPro family. */
export function familySageEmberPro(): Family {
  return { code: "SAG70", shelf: 20, fragile: true };
}

/** The fjordPearlPro family. */
export function familyFjordPearlPro(): Family {
  return { code: "FJO49", shelf: 23, fragile: true };
}

/** The deltaWillowMini family. */
export function familyDeltaWillowMini(): Family {
  return { code: "DEL64", shelf: 17, fragile: true };
}

/** The sageUmber family. */
export function familySageUmber(): Family {
  return { code: "SAG12", shelf: 15, fragile: true };
}

/** The nectarYarrowMax family. */
export function familyNectarYarrowMax(): Family {
  return { code: "NEC77", shelf: 20, fragile: true };
}

/** The xenonBasilMax family. */
export function familyXenonBasilMax(): Family {
  return { code: "XEN47", shelf: 5, fragile: true };
}

/** The basilRavenPro family. */
export function familyBasilRavenPro(): Family {
  return { code: "BAS46", shelf: 20, fragile: false };
}

/** The irisWillowPro family. */
export function familyIrisWillowPro(): Family {
  return { code: "IRI50", shelf: 39, fragile: true };
}

/** The yarrowValeMax family. */
export function familyYarrowValeMax(): Family {
  return { code: "YAR10", shelf: 12, fragile: false };
}

/** The quartzBasilMini family. */
export function familyQuartzBasilMini(): Family {
  return { code: "QUA71", shelf: 7, fragile: false };
}

/** The kelpPearlPro family. */
export function familyKelpPearlPro(): Family {
  return { code: "KEL89", shelf: 33, fragile: false };
}

/** The fjordAmberMax family. */
export function familyFjordAmberMax(): Family {
  return { code: "FJO74", shelf: 13, fragile: false };
}

/** The basilEmberPro family. */
export function familyBasilEmberPro(): Family {
  return { code: "BAS21", shelf: 3, fragile: false };
}

/** The xenonXenonMax family. */
export function familyXenonXenonMax(): Family {
  return { code: "XEN88", shelf: 7, fragile: false };
}

/** The emberZephyrPro family. */
export function familyEmberZephyrPro(): Family {
  return { code: "EMB30", shelf: 9, fragile: true };
}

/** The xenonLumen family. */
export function familyXenonLumen(): Family {
  return { code: "XEN90", shelf: 7, fragile: true };
}

/** The cedarHarborMini family. */
export function familyCedarHarborMini(): Family {
  return { code: "CED54", shelf: 4, fragile: true };
}

/** The harborEmber family. */
export function familyHarborEmber(): Family {
  return { code: "HAR51", shelf: 2, fragile: true };
}

/** The emberFjordMini family. */
export function familyEmberFjordMini(): Family {
  return { code: "EMB23", shelf: 1, fragile: false };
}

/** The nectarNectarMini family. */
export function familyNectarNectarMini(): Family {
  return { code: "NEC64", shelf: 12, fragile: true };
}

/** The nectarQuartz family. */
export function familyNectarQuartz(): Family {
  return { code: "NEC96", shelf: 39, fragile: false };
}

/** The kelpKelpPro family. */
export function familyKelpKelpPro(): Family {
  return { code: "KEL30", shelf: 3, fragile: true };
}

/** The quartzGroveMax family. */
export function familyQuartzGroveMax(): Family {
  return { code: "QUA63", shelf: 28, fragile: true };
}

/** The harborPearl family. */
export function familyHarborPearl(): Family {
  return { code: "HAR46", shelf: 3, fragile: false };
}

/** The kelpAmberMax family. */
export function familyKelpAmberMax(): Family {
  return { code: "KEL34", shelf: 36, fragile: true };
}

/** The willowTundraMini family. */
export function familyWillowTundraMini(): Family {
  return { code: "WIL20", shelf: 17, fragile: true };
}

/** The mapleKelpPro family. */
export function familyMapleKelpPro(): Family {
  return { code: "MAP56", shelf: 5, fragile: true };
}

/** The onyxWillowMini family. */
export function familyOnyxWillowMini(): Family {
  return { code: "ONY71", shelf: 37, fragile: false };
}

/** The cedarRavenMini family. */
export function familyCedarRavenMini(): Family {
  return { code: "CED78", shelf: 22, fragile: true };
}

/** The willowJuniperMax family. */
export function familyWillowJuniperMax(): Family {
  return { code: "WIL71", shelf: 34, fragile: false };
}

/** The ravenCedarPro family. */
export function familyRavenCedarPro(): Family {
  return { code: "RAV64", shelf: 31, fragile: true };
}

/** The umberZephyrPro family. */
export function familyUmberZephyrPro(): Family {
  return { code: "UMB96", shelf: 5, fragile: true };
}

/** The yarrowCedarPro family. */
export function familyYarrowCedarPro(): Family {
  return { code: "YAR14", shelf: 11, fragile: false };
}

/** The xenonOnyx family. */
export function familyXenonOnyx(): Family {
  return { code: "XEN94", shelf: 14, fragile: true };
}

/** The juniperSageMax family. */
export function familyJuniperSageMax(): Family {
  return { code: "JUN41", shelf: 21, fragile: false };
}

/** The groveQuartzMini family. */
export function familyGroveQuartzMini(): Family {
  return { code: "GRO75", shelf: 17, fragile: false };
}

/** The cedarAmber family. */
export function familyCedarAmber(): Family {
  return { code: "CED26", shelf: 29, fragile: true };
}

/** The xenonTundraMini family. */
export function familyXenonTundraMini(): Family {
  return { code: "XEN47", shelf: 28, fragile: false };
}

/** The deltaTundraPro family. */
export function familyDeltaTundraPro(): Family {
  return { code: "DEL69", shelf: 14, fragile: true };
}

/** The cedarEmberMax family. */
export function familyCedarEmberMax(): Family {
  return { code: "CED29", shelf: 13, fragile: false };
}

/** The kelpJuniperMini family. */
export function familyKelpJuniperMini(): Family {
  return { code: "KEL11", shelf: 36, fragile: false };
}

/** The pearlCedarPro family. */
export function familyPearlCedarPro(): Family {
  return { code: "PEA91", shelf: 15, fragile: false };
}

/** The lumenKelp family. */
export function familyLumenKelp(): Family {
  return { code: "LUM67", shelf: 22, fragile: true };
}

/** The onyxIris family. */
export function familyOnyxIris(): Family {
  return { code: "ONY80", shelf: 1, fragile: false };
}

/** The deltaKelp family. */
export function familyDeltaKelp(): Family {
  return { code: "DEL32", shelf: 28, fragile: true };
}

/** The juniperRavenMax family. */
export function familyJuniperRavenMax(): Family {
  return { code: "JUN52", shelf: 1, fragile: false };
}

/** The irisSage family. */
export function familyIrisSage(): Family {
  return { code: "IRI58", shelf: 9, fragile: false };
}

/** The onyxMapleMax family. */
export function familyOnyxMapleMax(): Family {
  return { code: "ONY39", shelf: 31, fragile: false };
}

/** The irisNectarPro family. */
export function familyIrisNectarPro(): Family {
  return { code: "IRI69", shelf: 24, fragile: false };
}

/** The quartzValeMax family. */
export function familyQuartzValeMax(): Family {
  return { code: "QUA45", shelf: 5, fragile: false };
}

/** The yarrowFjordMini family. */
export function familyYarrowFjordMini(): Family {
  return { code: "YAR20", shelf: 36, fragile: false };
}

/** The tundraAmberMini family. */
export function familyTundraAmberMini(): Family {
  return { code: "TUN39", shelf: 20, fragile: false };
}

/** The basilZephyr family. */
export function familyBasilZephyr(): Family {
  return { code: "BAS36", shelf: 5, fragile: false };
}

/** The mapleQuartzMini family. */
export function familyMapleQuartzMini(): Family {
  return { code: "MAP97", shelf: 29, fragile: true };
}

/** The cedarKelpMini family. */
export function familyCedarKelpMini(): Family {
  return { code: "CED78", shelf: 29, fragile: true };
}

/** The umberNectar family. */
export function familyUmberNectar(): Family {
  return { code: "UMB44", shelf: 16, fragile: true };
}

/** The pearlCedarMax family. */
export function familyPearlCedarMax(): Family {
  return { code: "PEA16", shelf: 4, fragile: true };
}

/** The willowXenonMini family. */
export function familyWillowXenonMini(): Family {
  return { code: "WIL66", shelf: 6, fragile: false };
}

/** The kelpDelta family. */
export function familyKelpDelta(): Family {
  return { code: "KEL92", shelf: 10, fragile: true };
}

/** The basilQuartzMini family. */
export function familyBasilQuartzMini(): Family {
  return { code: "BAS58", shelf: 3, fragile: true };
}

/** The quartzYarrow family. */
export function familyQuartzYarrow(): Family {
  return { code: "QUA97", shelf: 31, fragile: false };
}

/** The mapleJuniperMini family. */
export function familyMapleJuniperMini(): Family {
  return { code: "MAP91", shelf: 16, fragile: false };
}

/** The onyxRavenMini family. */
export function familyOnyxRavenMini(): Family {
  return { code: "ONY68", shelf: 32, fragile: true };
}

/** The tundraEmberMini family. */
export function familyTundraEmberMini(): Family {
  return { code: "TUN23", shelf: 7, fragile: true };
}

/** The xenonMaplePro family. */
export function familyXenonMaplePro(): Family {
  return { code: "XEN45", shelf: 11, fragile: false };
}

/** The valeTundra family. */
export function familyValeTundra(): Family {
  return { code: "VAL48", shelf: 7, fragile: false };
}

/** The irisRavenPro family. */
export function familyIrisRavenPro(): Family {
  return { code: "IRI76", shelf: 11, fragile: true };
}

/** The kelpEmberMini family. */
export function familyKelpEmberMini(): Family {
  return { code: "KEL62", shelf: 39, fragile: true };
}

/** The kelpTundraMax family. */
export function familyKelpTundraMax(): Family {
  return { code: "KEL36", shelf: 17, fragile: false };
}

/** The irisAmberMini family. */
export function familyIrisAmberMini(): Family {
  return { code: "IRI56", shelf: 33, fragile: false };
}

/** The mapleNectar family. */
export function familyMapleNectar(): Family {
  return { code: "MAP90", shelf: 17, fragile: true };
}

/** The mapleQuartz family. */
export function familyMapleQuartz(): Family {
  return { code: "MAP81", shelf: 13, fragile: true };
}

/** The groveWillow family. */
export function familyGroveWillow(): Family {
  return { code: "GRO42", shelf: 4, fragile: true };
}

/** The deltaYarrow family. */
export function familyDeltaYarrow(): Family {
  return { code: "DEL94", shelf: 32, fragile: true };
}

/** The sageRavenMax family. */
export function familySageRavenMax(): Family {
  return { code: "SAG86", shelf: 40, fragile: false };
}

/** The ravenPearlMax family. */
export function familyRavenPearlMax(): Family {
  return { code: "RAV73", shelf: 38, fragile: true };
}

/**
 * The SKU the warehouse prints for item `id` of `category`: the category in capitals, a dash,
 * and the id padded with zeros to six digits, e.g. formatSku("tea", 42) === "TEA-000042".
 */
export function formatSku(category: string, id: number): string {
  if (!Number.isInteger(id) || id < 0) throw new RangeError(`bad id: ${id}`);
  return `${category.toLowerCase()}-${String(id).padStart(4, "0")}`;
}

/** The lumenMaplePro family. */
export function familyLumenMaplePro(): Family {
  return { code: "LUM69", shelf: 36, fragile: false };
}

/** The quartzJuniper family. */
export function familyQuartzJuniper(): Family {
  return { code: "QUA57", shelf: 7, fragile: false };
}

/** The mapleZephyrMax family. */
export function familyMapleZephyrMax(): Family {
  return { code: "MAP87", shelf: 8, fragile: false };
}

/** The zephyrXenonPro family. */
export function familyZephyrXenonPro(): Family {
  return { code: "ZEP53", shelf: 2, fragile: false };
}

/** The cedarPearlMini family. */
export function familyCedarPearlMini(): Family {
  return { code: "CED14", shelf: 9, fragile: true };
}

/** The amberAmberMax family. */
export function familyAmberAmberMax(): Family {
  return { code: "AMB96", shelf: 19, fragile: true };
}

/** The zephyrQuartzMax family. */
export function familyZephyrQuartzMax(): Family {
  return { code: "ZEP12", shelf: 14, fragile: true };
}

/** The umberFjordPro family. */
export function familyUmberFjordPro(): Family {
  return { code: "UMB71", shelf: 23, fragile: false };
}

/** The xenonPearlMini family. */
export function familyXenonPearlMini(): Family {
  return { code: "XEN52", shelf: 10, fragile: false };
}

/** The zephyrSage family. */
export function familyZephyrSage(): Family {
  return { code: "ZEP72", shelf: 38, fragile: false };
}

/** The umberZephyrMax family. */
export function familyUmberZephyrMax(): Family {
  return { code: "UMB11", shelf: 17, fragile: false };
}

/** The onyxZephyrMini family. */
export function familyOnyxZephyrMini(): Family {
  return { code: "ONY74", shelf: 8, fragile: false };
}

/** The ravenValeMini family. */
export function familyRavenValeMini(): Family {
  return { code: "RAV40", shelf: 24, fragile: true };
}

/** The nectarPearlMax family. */
export function familyNectarPearlMax(): Family {
  return { code: "NEC34", shelf: 2, fragile: false };
}

/** The cedarFjordMax family. */
export function familyCedarFjordMax(): Family {
  return { code: "CED28", shelf: 3, fragile: false };
}

/** The onyxHarborMax family. */
export function familyOnyxHarborMax(): Family {
  return { code: "ONY18", shelf: 24, fragile: false };
}

/** The valeCedar family. */
export function familyValeCedar(): Family {
  return { code: "VAL89", shelf: 25, fragile: true };
}

/** The fjordAmber family. */
export function familyFjordAmber(): Family {
  return { code: "FJO51", shelf: 33, fragile: false };
}

/** The juniperRavenMini family. */
export function familyJuniperRavenMini(): Family {
  return { code: "JUN23", shelf: 33, fragile: false };
}

/** The willowAmberPro family. */
export function familyWillowAmberPro(): Family {
  return { code: "WIL35", shelf: 4, fragile: false };
}

/** The willowRavenPro family. */
export function familyWillowRavenPro(): Family {
  return { code: "WIL74", shelf: 22, fragile: true };
}

/** The sageYarrowMini family. */
export function familySageYarrowMini(): Family {
  return { code: "SAG88", shelf: 36, fragile: true };
}

/** The tundraSageMini family. */
export function familyTundraSageMini(): Family {
  return { code: "TUN28", shelf: 25, fragile: false };
}

/** The emberCedarMax family. */
export function familyEmberCedarMax(): Family {
  return { code: "EMB52", shelf: 28, fragile: true };
}

/** The quartzQuartzMini family. */
export function familyQuartzQuartzMini(): Family {
  return { code: "QUA40", shelf: 8, fragile: false };
}

/** The deltaMaple family. */
export function familyDeltaMaple(): Family {
  return { code: "DEL13", shelf: 9, fragile: true };
}

/** The yarrowWillowMax family. */
export function familyYarrowWillowMax(): Family {
  return { code: "YAR25", shelf: 34, fragile: false };
}

/** The amberGroveMax family. */
export function familyAmberGroveMax(): Family {
  return { code: "AMB91", shelf: 18, fragile: false };
}

/** The xenonOnyxPro family. */
export function familyXenonOnyxPro(): Family {
  return { code: "XEN93", shelf: 28, fragile: true };
}

/** The valeRavenMax family. */
export function familyValeRavenMax(): Family {
  return { code: "VAL85", shelf: 25, fragile: false };
}

/** The yarrowGroveMini family. */
export function familyYarrowGroveMini(): Family {
  return { code: "YAR96", shelf: 14, fragile: false };
}

/** The yarrowBasil family. */
export function familyYarrowBasil(): Family {
  return { code: "YAR86", shelf: 7, fragile: false };
}

/** The onyxEmber family. */
export function familyOnyxEmber(): Family {
  return { code: "ONY12", shelf: 1, fragile: false };
}

/** The irisEmber family. */
export function familyIrisEmber(): Family {
  return { code: "IRI17", shelf: 18, fragile: false };
}

/** The deltaRavenMax family. */
export function familyDeltaRavenMax(): Family {
  return { code: "DEL57", shelf: 24, fragile: true };
}

/** The groveSageMax family. */
export function familyGroveSageMax(): Family {
  return { code: "GRO97", shelf: 4, fragile: false };
}

/** The valeJuniperMax family. */
export function familyValeJuniperMax(): Family {
  return { code: "VAL86", shelf: 17, fragile: true };
}

/** The pearlGrovePro family. */
export function familyPearlGrovePro(): Family {
  return { code: "PEA27", shelf: 9, fragile: false };
}

/** The fjordPearl family. */
export function familyFjordPearl(): Family {
  return { code: "FJO45", shelf: 6, fragile: false };
}

/** The mapleBasilPro family. */
export function familyMapleBasilPro(): Family {
  return { code: "MAP22", shelf: 13, fragile: false };
}

/** The umberKelpMax family. */
export function familyUmberKelpMax(): Family {
  return { code: "UMB18", shelf: 10, fragile: false };
}

/** The mapleRavenMini family. */
export function familyMapleRavenMini(): Family {
  return { code: "MAP99", shelf: 10, fragile: false };
}

/** The juniperYarrowMini family. */
export function familyJuniperYarrowMini(): Family {
  return { code: "JUN32", shelf: 34, fragile: false };
}

/** The onyxSageMini family. */
export function familyOnyxSageMini(): Family {
  return { code: "ONY40", shelf: 38, fragile: true };
}

/** The groveWillowMax family. */
export function familyGroveWillowMax(): Family {
  return { code: "GRO82", shelf: 17, fragile: false };
}

/** The grovePearl family. */
export function familyGrovePearl(): Family {
  return { code: "GRO72", shelf: 30, fragile: true };
}

/** The umberVale family. */
export function familyUmberVale(): Family {
  return { code: "UMB54", shelf: 25, fragile: false };
}

/** The kelpAmberPro family. */
export function familyKelpAmberPro(): Family {
  return { code: "KEL80", shelf: 3, fragile: true };
}

/** The xenonOnyxMini family. */
export function familyXenonOnyxMini(): Family {
  return { code: "XEN41", shelf: 23, fragile: false };
}

/** The nectarNectar family. */
export function familyNectarNectar(): Family {
  return { code: "NEC35", shelf: 38, fragile: true };
}

/** The nectarRavenMax family. */
export function familyNectarRavenMax(): Family {
  return { code: "NEC61", shelf: 17, fragile: true };
}

/** The sageXenonMax family. */
export function familySageXenonMax(): Family {
  return { code: "SAG87", shelf: 20, fragile: true };
}

/** The kelpQuartzMini family. */
export function familyKelpQuartzMini(): Family {
  return { code: "KEL72", shelf: 11, fragile: true };
}

/** The xenonEmberMini family. */
export function familyXenonEmberMini(): Family {
  return { code: "XEN38", shelf: 38, fragile: true };
}

/** The xenonQuartzPro family. */
export function familyXenonQuartzPro(): Family {
  return { code: "XEN77", shelf: 36, fragile: true };
}

/** The basilBasil family. */
export function familyBasilBasil(): Family {
  return { code: "BAS64", shelf: 35, fragile: false };
}

/** The cedarRavenPro family. */
export function familyCedarRavenPro(): Family {
  return { code: "CED77", shelf: 32, fragile: false };
}

/** The juniperNectar family. */
export function familyJuniperNectar(): Family {
  return { code: "JUN70", shelf: 40, fragile: true };
}

/** The harborGroveMax family. */
export function familyHarborGroveMax(): Family {
  return { code: "HAR99", shelf: 31, fragile: true };
}

/** The emberDeltaMini family. */
export function familyEmberDeltaMini(): Family {
  return { code: "EMB56", shelf: 31, fragile: true };
}

/** The cedarFjordMini family. */
export function familyCedarFjordMini(): Family {
  return { code: "CED10", shelf: 19, fragile: true };
}

/** The cedarMaple family. */
export function familyCedarMaple(): Family {
  return { code: "CED20", shelf: 22, fragile: false };
}

/** The umberHarbor family. */
export function familyUmberHarbor(): Family {
  return { code: "UMB97", shelf: 11, fragile: false };
}

/** The quartzIrisMax family. */
export function familyQuartzIrisMax(): Family {
  return { code: "QUA11", shelf: 6, fragile: false };
}

/** The willowGrovePro family. */
export function familyWillowGrovePro(): Family {
  return { code: "WIL59", shelf: 38, fragile: false };
}

/** The harborLumen family. */
export function familyHarborLumen(): Family {
  return { code: "HAR75", shelf: 26, fragile: true };
}

/** The mapleOnyxMax family. */
export function familyMapleOnyxMax(): Family {
  return { code: "MAP82", shelf: 29, fragile: true };
}

/** The sageDeltaPro family. */
export function familySageDeltaPro(): Family {
  return { code: "SAG56", shelf: 12, fragile: false };
}

/** The mapleFjord family. */
export function familyMapleFjord(): Family {
  return { code: "MAP89", shelf: 35, fragile: true };
}

/** The ravenKelpPro family. */
export function familyRavenKelpPro(): Family {
  return { code: "RAV94", shelf: 29, fragile: false };
}

/** The mapleGroveMini family. */
export function familyMapleGroveMini(): Family {
  return { code: "MAP46", shelf: 21, fragile: false };
}

/** The basilSage family. */
export function familyBasilSage(): Family {
  return { code: "BAS37", shelf: 9, fragile: true };
}

/** The kelpQuartzMax family. */
export function familyKelpQuartzMax(): Family {
  return { code: "KEL56", shelf: 15, fragile: false };
}

/** The yarrowLumenPro family. */
export function familyYarrowLumenPro(): Family {
  return { code: "YAR26", shelf: 6, fragile: true };
}

/** The pearlAmberPro family. */
export function familyPearlAmberPro(): Family {
  return { code: "PEA37", shelf: 33, fragile: true };
}

/** The lumenCedar family. */
export function familyLumenCedar(): Family {
  return { code: "LUM60", shelf: 2, fragile: true };
}

/** The tundraRavenMini family. */
export function familyTundraRavenMini(): Family {
  return { code: "TUN54", shelf: 14, fragile: false };
}

/** The emberOnyxMini family. */
export function familyEmberOnyxMini(): Family {
  return { code: "EMB50", shelf: 16, fragile: false };
}

/** The tundraJuniperMax family. */
export function familyTundraJuniperMax(): Family {
  return { code: "TUN86", shelf: 34, fragile: true };
}

/** The juniperZephyrPro family. */
export function familyJuniperZephyrPro(): Family {
  return { code: "JUN79", shelf: 1, fragile: false };
}

/** The cedarYarrowMax family. */
export function familyCedarYarrowMax(): Family {
  return { code: "CED73", shelf: 28, fragile: true };
}

/** The emberRavenMax family. */
export function familyEmberRavenMax(): Family {
  return { code: "EMB74", shelf: 21, fragile: true };
}

/** The juniperOnyxPro family. */
export function familyJuniperOnyxPro(): Family {
  return { code: "JUN80", shelf: 22, fragile: false };
}

/** The valeHarborPro family. */
export function familyValeHarborPro(): Family {
  return { code: "VAL38", shelf: 36, fragile: true };
}

/** The juniperIrisMax family. */
export function familyJuniperIrisMax(): Family {
  return { code: "JUN24", shelf: 32, fragile: true };
}

/** The basilLumenMini family. */
export function familyBasilLumenMini(): Family {
  return { code: "BAS18", shelf: 11, fragile: false };
}

/** The mapleVale family. */
export function familyMapleVale(): Family {
  return { code: "MAP94", shelf: 11, fragile: true };
}

/** The irisDeltaMax family. */
export function familyIrisDeltaMax(): Family {
  return { code: "IRI37", shelf: 8, fragile: false };
}

/** The fjordXenonMini family. */
export function familyFjordXenonMini(): Family {
  return { code: "FJO25", shelf: 40, fragile: false };
}

/** The willowFjordMax family. */
export function familyWillowFjordMax(): Family {
  return { code: "WIL25", shelf: 40, fragile: true };
}

/** The kelpMaple family. */
export function familyKelpMaple(): Family {
  return { code: "KEL89", shelf: 31, fragile: true };
}

/** The amberOnyxPro family. */
export function familyAmberOnyxPro(): Family {
  return { code: "AMB82", shelf: 9, fragile: true };
}

/** The valeWillowPro family. */
export function familyValeWillowPro(): Family {
  return { code: "VAL53", shelf: 18, fragile: true };
}

/** The fjordHarborMax family. */
export function familyFjordHarborMax(): Family {
  return { code: "FJO99", shelf: 34, fragile: false };
}

/** The willowWillowMax family. */
export function familyWillowWillowMax(): Family {
  return { code: "WIL86", shelf: 10, fragile: true };
}

/** The tundraIrisPro family. */
export function familyTundraIrisPro(): Family {
  return { code: "TUN93", shelf: 31, fragile: true };
}

/** The deltaValeMax family. */
export function familyDeltaValeMax(): Family {
  return { code: "DEL61", shelf: 16, fragile: true };
}

/** The pearlTundraPro family. */
export function familyPearlTundraPro(): Family {
  return { code: "PEA74", shelf: 1, fragile: false };
}

/** The ravenSage family. */
export function familyRavenSage(): Family {
  return { code: "RAV48", shelf: 29, fragile: true };
}

/** The sageJuniperPro family. */
export function familySageJuniperPro(): Family {
  return { code: "SAG50", shelf: 15, fragile: false };
}

/** The mapleIrisPro family. */
export function familyMapleIrisPro(): Family {
  return { code: "MAP78", shelf: 8, fragile: true };
}

/** The willowEmberPro family. */
export function familyWillowEmberPro(): Family {
  return { code: "WIL77", shelf: 36, fragile: false };
}

/** The mapleZephyr family. */
export function familyMapleZephyr(): Family {
  return { code: "MAP13", shelf: 30, fragile: true };
}

/** The irisFjord family. */
export function familyIrisFjord(): Family {
  return { code: "IRI21", shelf: 34, fragile: false };
}

/** The quartzHarborMini family. */
export function familyQuartzHarborMini(): Family {
  return { code: "QUA39", shelf: 4, fragile: true };
}

/** The mapleWillowMini family. */
export function familyMapleWillowMini(): Family {
  return { code: "MAP81", shelf: 11, fragile: false };
}

/** The cedarJuniperMax family. */
export function familyCedarJuniperMax(): Family {
  return { code: "CED41", shelf: 1, fragile: false };
}

/** The onyxWillowMax family. */
export function familyOnyxWillowMax(): Family {
  return { code: "ONY93", shelf: 6, fragile: true };
}

/** The tundraQuartzPro family. */
export function familyTundraQuartzPro(): Family {
  return { code: "TUN93", shelf: 20, fragile: true };
}

/** The amberValeMax family. */
export function familyAmberValeMax(): Family {
  return { code: "AMB81", shelf: 1, fragile: false };
}

/** The kelpKelpMini family. */
export function familyKelpKelpMini(): Family {
  return { code: "KEL76", shelf: 35, fragile: false };
}

/** The quartzNectarMini family. */
export function familyQuartzNectarMini(): Family {
  return { code: "QUA41", shelf: 16, fragile: false };
}

/** The juniperLumenMini family. */
export function familyJuniperLumenMini(): Family {
  return { code: "JUN44", shelf: 19, fragile: true };
}

/** The onyxJuniperMax family. */
export function familyOnyxJuniperMax(): Family {
  return { code: "ONY48", shelf: 24, fragile: false };
}

/** The cedarSagePro family. */
export function familyCedarSagePro(): Family {
  return { code: "CED50", shelf: 33, fragile: true };
}

/** The irisTundra family. */
export function familyIrisTundra(): Family {
  return { code: "IRI33", shelf: 3, fragile: false };
}

/** The umberBasilMax family. */
export function familyUmberBasilMax(): Family {
  return { code: "UMB33", shelf: 2, fragile: false };
}

/** The umberNectarPro family. */
export function familyUmberNectarPro(): Family {
  return { code: "UMB48", shelf: 28, fragile: true };
}

/** The valeUmber family. */
export function familyValeUmber(): Family {
  return { code: "VAL83", shelf: 40, fragile: true };
}

/** The tundraDeltaPro family. */
export function familyTundraDeltaPro(): Family {
  return { code: "TUN23", shelf: 36, fragile: false };
}

/** The basilCedar family. */
export function familyBasilCedar(): Family {
  return { code: "BAS38", shelf: 38, fragile: true };
}

/** The tundraZephyrMax family. */
export function familyTundraZephyrMax(): Family {
  return { code: "TUN72", shelf: 36, fragile: false };
}

/** The sageMaple family. */
export function familySageMaple(): Family {
  return { code: "SAG91", shelf: 2, fragile: false };
}

/** The valeMapleMini family. */
export function familyValeMapleMini(): Family {
  return { code: "VAL75", shelf: 3, fragile: true };
}

/** The groveAmberPro family. */
export function familyGroveAmberPro(): Family {
  return { code: "GRO70", shelf: 8, fragile: true };
}

/** The kelpWillowMini family. */
export function familyKelpWillowMini(): Family {
  return { code: "KEL47", shelf: 30, fragile: false };
}

/** The tundraOnyxMini family. */
export function familyTundraOnyxMini(): Family {
  return { code: "TUN30", shelf: 25, fragile: true };
}

/** The deltaPearl family. */
export function familyDeltaPearl(): Family {
  return { code: "DEL36", shelf: 30, fragile: true };
}

/** The lumenSageMini family. */
export function familyLumenSageMini(): Family {
  return { code: "LUM58", shelf: 29, fragile: false };
}

/** The valeYarrowMini family. */
export function familyValeYarrowMini(): Family {
  return { code: "VAL85", shelf: 12, fragile: true };
}

/** The kelpHarbor family. */
export function familyKelpHarbor(): Family {
  return { code: "KEL79", shelf: 10, fragile: true };
}

/** The nectarRavenMini family. */
export function familyNectarRavenMini(): Family {
  return { code: "NEC99", shelf: 12, fragile: false };
}

/** The nectarBasil family. */
export function familyNectarBasil(): Family {
  return { code: "NEC74", shelf: 31, fragile: false };
}

/** The willowZephyrMini family. */
export function familyWillowZephyrMini(): Family {
  return { code: "WIL22", shelf: 25, fragile: false };
}

/** The kelpNectar family. */
export function familyKelpNectar(): Family {
  return { code: "KEL85", shelf: 18, fragile: true };
}

/** The fjordXenonPro family. */
export function familyFjordXenonPro(): Family {
  return { code: "FJO59", shelf: 10, fragile: true };
}

/** The cedarUmberMax family. */
export function familyCedarUmberMax(): Family {
  return { code: "CED31", shelf: 28, fragile: false };
}

/** The ravenBasilMax family. */
export function familyRavenBasilMax(): Family {
  return { code: "RAV98", shelf: 16, fragile: false };
}

/** The tundraNectarPro family. */
export function familyTundraNectarPro(): Family {
  return { code: "TUN31", shelf: 35, fragile: false };
}

/** The emberGroveMini family. */
export function familyEmberGroveMini(): Family {
  return { code: "EMB49", shelf: 24, fragile: true };
}

/** The basilTundraMini family. */
export function familyBasilTundraMini(): Family {
  return { code: "BAS54", shelf: 18, fragile: false };
}

/** The mapleTundraMax family. */
export function familyMapleTundraMax(): Family {
  return { code: "MAP12", shelf: 6, fragile: false };
}

/** The basilLumenPro family. */
export function familyBasilLumenPro(): Family {
  return { code: "BAS94", shelf: 37, fragile: false };
}

/** The ravenDeltaMini family. */
export function familyRavenDeltaMini(): Family {
  return { code: "RAV90", shelf: 12, fragile: true };
}

/** The tundraQuartz family. */
export function familyTundraQuartz(): Family {
  return { code: "TUN55", shelf: 7, fragile: true };
}

/** The zephyrNectarMax family. */
export function familyZephyrNectarMax(): Family {
  return { code: "ZEP58", shelf: 24, fragile: false };
}

/** The groveGrove family. */
export function familyGroveGrove(): Family {
  return { code: "GRO42", shelf: 16, fragile: true };
}

/** The kelpTundra family. */
export function familyKelpTundra(): Family {
  return { code: "KEL95", shelf: 11, fragile: true };
}

/** The fjordMapleMini family. */
export function familyFjordMapleMini(): Family {
  return { code: "FJO12", shelf: 29, fragile: true };
}

/** The quartzHarbor family. */
export function familyQuartzHarbor(): Family {
  return { code: "QUA27", shelf: 14, fragile: true };
}

/** The xenonOnyxMax family. */
export function familyXenonOnyxMax(): Family {
  return { code: "XEN22", shelf: 28, fragile: false };
}

/** The amberRaven family. */
export function familyAmberRaven(): Family {
  return { code: "AMB51", shelf: 33, fragile: false };
}

/** The onyxCedarMax family. */
export function familyOnyxCedarMax(): Family {
  return { code: "ONY21", shelf: 24, fragile: false };
}

/** The umberXenonMini family. */
export function familyUmberXenonMini(): Family {
  return { code: "UMB33", shelf: 7, fragile: true };
}

/** The quartzPearl family. */
export function familyQuartzPearl(): Family {
  return { code: "QUA70", shelf: 17, fragile: true };
}

/** The juniperBasilMini family. */
export function familyJuniperBasilMini(): Family {
  return { code: "JUN51", shelf: 8, fragile: false };
}

/** The umberAmberPro family. */
export function familyUmberAmberPro(): Family {
  return { code: "UMB61", shelf: 26, fragile: true };
}

/** The groveMapleMax family. */
export function familyGroveMapleMax(): Family {
  return { code: "GRO51", shelf: 32, fragile: false };
}

/** The cedarTundraPro family. */
export function familyCedarTundraPro(): Family {
  return { code: "CED33", shelf: 35, fragile: false };
}

/** The quartzCedarPro family. */
export function familyQuartzCedarPro(): Family {
  return { code: "QUA41", shelf: 1, fragile: false };
}

/** The willowKelpPro family. */
export function familyWillowKelpPro(): Family {
  return { code: "WIL58", shelf: 15, fragile: false };
}

/** The zephyrJuniperMini family. */
export function familyZephyrJuniperMini(): Family {
  return { code: "ZEP33", shelf: 2, fragile: true };
}

/** The irisTundraPro family. */
export function familyIrisTundraPro(): Family {
  return { code: "IRI12", shelf: 10, fragile: false };
}

/** The nectarAmber family. */
export function familyNectarAmber(): Family {
  return { code: "NEC81", shelf: 11, fragile: true };
}

/** The emberMaplePro family. */
export function familyEmberMaplePro(): Family {
  return { code: "EMB30", shelf: 21, fragile: false };
}

/** The mapleFjordMax family. */
export function familyMapleFjordMax(): Family {
  return { code: "MAP37", shelf: 4, fragile: false };
}

/** The deltaGroveMini family. */
export function familyDeltaGroveMini(): Family {
  return { code: "DEL18", shelf: 35, fragile: true };
}

/** The basilXenon family. */
export function familyBasilXenon(): Family {
  return { code: "BAS43", shelf: 2, fragile: true };
}

/** The harborCedarMax family. */
export function familyHarborCedarMax(): Family {
  return { code: "HAR15", shelf: 35, fragile: true };
}

/** The fjordWillowMax family. */
export function familyFjordWillowMax(): Family {
  return { code: "FJO32", shelf: 19, fragile: false };
}

/** The emberMapleMini family. */
export function familyEmberMapleMini(): Family {
  return { code: "EMB39", shelf: 25, fragile: true };
}

/** The yarrowWillowMini family. */
export function familyYarrowWillowMini(): Family {
  return { code: "YAR80", shelf: 36, fragile: false };
}

/** The willowQuartzMini family. */
export function familyWillowQuartzMini(): Family {
  return { code: "WIL69", shelf: 16, fragile: true };
}

/** The lumenTundraPro family. */
export function familyLumenTundraPro(): Family {
  return { code: "LUM56", shelf: 14, fragile: true };
}

/** The xenonCedarPro family. */
export function familyXenonCedarPro(): Family {
  return { code: "XEN45", shelf: 17, fragile: true };
}

/** The amberAmberMini family. */
export function familyAmberAmberMini(): Family {
  return { code: "AMB60", shelf: 36, fragile: true };
}

/** The cedarYarrowMini family. */
export function familyCedarYarrowMini(): Family {
  return { code: "CED39", shelf: 25, fragile: true };
}

/** The yarrowPearlMax family. */
export function familyYarrowPearlMax(): Family {
  return { code: "YAR87", shelf: 23, fragile: false };
}

/** The irisBasil family. */
export function familyIrisBasil(): Family {
  return { code: "IRI65", shelf: 16, fragile: true };
}

/** The yarrowUmberMini family. */
export function familyYarrowUmberMini(): Family {
  return { code: "YAR54", shelf: 27, fragile: true };
}

/** The pearlLumenPro family. */
export function familyPearlLumenPro(): Family {
  return { code: "PEA73", shelf: 32, fragile: false };
}

/** The zephyrGroveMax family. */
export function familyZephyrGroveMax(): Family {
  return { code: "ZEP73", shelf: 23, fragile: true };
}

/** The kelpCedar family. */
export function familyKelpCedar(): Family {
  return { code: "KEL49", shelf: 24, fragile: true };
}

/** The zephyrAmberMini family. */
export function familyZephyrAmberMini(): Family {
  return { code: "ZEP40", shelf: 17, fragile: false };
}

/** The juniperGrove family. */
export function familyJuniperGrove(): Family {
  return { code: "JUN59", shelf: 19, fragile: false };
}

/** The sageDelta family. */
export function familySageDelta(): Family {
  return { code: "SAG79", shelf: 4, fragile: false };
}

/** The umberOnyxMini family. */
export function familyUmberOnyxMini(): Family {
  return { code: "UMB14", shelf: 1, fragile: true };
}

/** The cedarValeMini family. */
export function familyCedarValeMini(): Family {
  return { code: "CED63", shelf: 13, fragile: false };
}

/** The sageRavenPro family. */
export function familySageRavenPro(): Family {
  return { code: "SAG70", shelf: 34, fragile: false };
}

/** The fjordOnyxMax family. */
export function familyFjordOnyxMax(): Family {
  return { code: "FJO53", shelf: 30, fragile: true };
}

/** The onyxValeMax family. */
export function familyOnyxValeMax(): Family {
  return { code: "ONY17", shelf: 6, fragile: false };
}

/** The tundraGrove family. */
export function familyTundraGrove(): Family {
  return { code: "TUN80", shelf: 33, fragile: false };
}

/** The ravenXenonMini family. */
export function familyRavenXenonMini(): Family {
  return { code: "RAV77", shelf: 18, fragile: false };
}

/** The fjordCedarPro family. */
export function familyFjordCedarPro(): Family {
  return { code: "FJO38", shelf: 2, fragile: true };
}

/** The nectarVale family. */
export function familyNectarVale(): Family {
  return { code: "NEC54", shelf: 9, fragile: false };
}

/** The basilXenonMax family. */
export function familyBasilXenonMax(): Family {
  return { code: "BAS39", shelf: 11, fragile: true };
}

/** The emberValeMini family. */
export function familyEmberValeMini(): Family {
  return { code: "EMB19", shelf: 30, fragile: true };
}

/** The ravenOnyxMax family. */
export function familyRavenOnyxMax(): Family {
  return { code: "RAV92", shelf: 32, fragile: true };
}

/** The willowRavenMax family. */
export function familyWillowRavenMax(): Family {
  return { code: "WIL93", shelf: 35, fragile: true };
}

/** The basilYarrowPro family. */
export function familyBasilYarrowPro(): Family {
  return { code: "BAS73", shelf: 20, fragile: true };
}

/** The fjordYarrowMax family. */
export function familyFjordYarrowMax(): Family {
  return { code: "FJO75", shelf: 15, fragile: false };
}

/** The lumenBasilMax family. */
export function familyLumenBasilMax(): Family {
  return { code: "LUM73", shelf: 4, fragile: true };
}

/** The kelpFjordMax family. */
export function familyKelpFjordMax(): Family {
  return { code: "KEL42", shelf: 31, fragile: true };
}

/** The kelpValePro family. */
export function familyKelpValePro(): Family {
  return { code: "KEL57", shelf: 30, fragile: true };
}

/** The basilJuniperMax family. */
export function familyBasilJuniperMax(): Family {
  return { code: "BAS69", shelf: 38, fragile: false };
}

/** The onyxRaven family. */
export function familyOnyxRaven(): Family {
  return { code: "ONY39", shelf: 10, fragile: false };
}

/** The amberHarborMax family. */
export function familyAmberHarborMax(): Family {
  return { code: "AMB11", shelf: 1, fragile: false };
}

/** The kelpLumenMax family. */
export function familyKelpLumenMax(): Family {
  return { code: "KEL80", shelf: 8, fragile: false };
}

/** The onyxCedar family. */
export function familyOnyxCedar(): Family {
  return { code: "ONY36", shelf: 34, fragile: true };
}

/** The willowEmberMini family. */
export function familyWillowEmberMini(): Family {
  return { code: "WIL60", shelf: 17, fragile: true };
}

/** The kelpIris family. */
export function familyKelpIris(): Family {
  return { code: "KEL64", shelf: 31, fragile: true };
}

/** The cedarJuniperMini family. */
export function familyCedarJuniperMini(): Family {
  return { code: "CED43", shelf: 22, fragile: false };
}

/** The sagePearl family. */
export function familySagePearl(): Family {
  return { code: "SAG34", shelf: 28, fragile: true };
}

/** The quartzIris family. */
export function familyQuartzIris(): Family {
  return { code: "QUA12", shelf: 4, fragile: false };
}

/** The quartzCedar family. */
export function familyQuartzCedar(): Family {
  return { code: "QUA77", shelf: 34, fragile: false };
}

/** The harborBasil family. */
export function familyHarborBasil(): Family {
  return { code: "HAR56", shelf: 26, fragile: false };
}

/** The deltaJuniperPro family. */
export function familyDeltaJuniperPro(): Family {
  return { code: "DEL15", shelf: 21, fragile: true };
}

/** The mapleOnyxPro family. */
export function familyMapleOnyxPro(): Family {
  return { code: "MAP60", shelf: 28, fragile: false };
}

/** The xenonJuniperPro family. */
export function familyXenonJuniperPro(): Family {
  return { code: "XEN69", shelf: 18, fragile: false };
}

/** The basilKelpMini family. */
export function familyBasilKelpMini(): Family {
  return { code: "BAS13", shelf: 25, fragile: false };
}

/** The basilBasilPro family. */
export function familyBasilBasilPro(): Family {
  return { code: "BAS76", shelf: 16, fragile: true };
}

/** The mapleWillowPro family. */
export function familyMapleWillowPro(): Family {
  return { code: "MAP96", shelf: 25, fragile: true };
}

/** The quartzAmberPro family. */
export function familyQuartzAmberPro(): Family {
  return { code: "QUA39", shelf: 34, fragile: true };
}

/** The harborWillowMax family. */
export function familyHarborWillowMax(): Family {
  return { code: "HAR29", shelf: 32, fragile: true };
}

/** The yarrowKelpPro family. */
export function familyYarrowKelpPro(): Family {
  return { code: "YAR68", shelf: 9, fragile: true };
}

/** The harborUmberPro family. */
export function familyHarborUmberPro(): Family {
  return { code: "HAR99", shelf: 22, fragile: false };
}

/** The fjordPearlMini family. */
export function familyFjordPearlMini(): Family {
  return { code: "FJO83", shelf: 33, fragile: true };
}

/** The pearlPearl family. */
export function familyPearlPearl(): Family {
  return { code: "PEA83", shelf: 13, fragile: false };
}

/** The valeTundraPro family. */
export function familyValeTundraPro(): Family {
  return { code: "VAL85", shelf: 3, fragile: true };
}

/** The mapleZephyrMini family. */
export function familyMapleZephyrMini(): Family {
  return { code: "MAP37", shelf: 20, fragile: true };
}

/** The amberHarborPro family. */
export function familyAmberHarborPro(): Family {
  return { code: "AMB48", shelf: 18, fragile: true };
}

/** The nectarSageMini family. */
export function familyNectarSageMini(): Family {
  return { code: "NEC92", shelf: 19, fragile: false };
}

/** The pearlJuniperMini family. */
export function familyPearlJuniperMini(): Family {
  return { code: "PEA55", shelf: 9, fragile: false };
}

/** The sageLumen family. */
export function familySageLumen(): Family {
  return { code: "SAG39", shelf: 7, fragile: true };
}

/** The groveYarrowPro family. */
export function familyGroveYarrowPro(): Family {
  return { code: "GRO89", shelf: 15, fragile: false };
}

/** The emberGroveMax family. */
export function familyEmberGroveMax(): Family {
  return { code: "EMB17", shelf: 1, fragile: true };
}

/** The umberGrove family. */
export function familyUmberGrove(): Family {
  return { code: "UMB21", shelf: 21, fragile: true };
}

/** The juniperAmberPro family. */
export function familyJuniperAmberPro(): Family {
  return { code: "JUN87", shelf: 24, fragile: false };
}

/** The quartzNectar family. */
export function familyQuartzNectar(): Family {
  return { code: "QUA44", shelf: 20, fragile: true };
}

/** The willowValeMax family. */
export function familyWillowValeMax(): Family {
  return { code: "WIL69", shelf: 4, fragile: true };
}

/** The yarrowEmberPro family. */
export function familyYarrowEmberPro(): Family {
  return { code: "YAR89", shelf: 20, fragile: false };
}

/** The valeAmberMax family. */
export function familyValeAmberMax(): Family {
  return { code: "VAL54", shelf: 10, fragile: true };
}

/** The irisRavenMax family. */
export function familyIrisRavenMax(): Family {
  return { code: "IRI62", shelf: 39, fragile: false };
}

/** The juniperTundra family. */
export function familyJuniperTundra(): Family {
  return { code: "JUN83", shelf: 24, fragile: false };
}

/** The quartzUmber family. */
export function familyQuartzUmber(): Family {
  return { code: "QUA73", shelf: 28, fragile: true };
}

/** The emberUmberPro family. */
export function familyEmberUmberPro(): Family {
  return { code: "EMB25", shelf: 4, fragile: false };
}

/** The valeAmberPro family. */
export function familyValeAmberPro(): Family {
  return { code: "VAL37", shelf: 40, fragile: false };
}

/** The amberTundraMax family. */
export function familyAmberTundraMax(): Family {
  return { code: "AMB63", shelf: 8, fragile: true };
}

/** The onyxWillowPro family. */
export function familyOnyxWillowPro(): Family {
  return { code: "ONY33", shelf: 36, fragile: false };
}

/** The emberYarrowPro family. */
export function familyEmberYarrowPro(): Family {
  return { code: "EMB74", shelf: 19, fragile: false };
}

/** The quartzDeltaPro family. */
export function familyQuartzDeltaPro(): Family {
  return { code: "QUA73", shelf: 13, fragile: true };
}

/** The harborUmberMini family. */
export function familyHarborUmberMini(): Family {
  return { code: "HAR77", shelf: 14, fragile: false };
}

/** The nectarHarborMax family. */
export function familyNectarHarborMax(): Family {
  return { code: "NEC15", shelf: 31, fragile: false };
}

/** The amberXenon family. */
export function familyAmberXenon(): Family {
  return { code: "AMB50", shelf: 33, fragile: false };
}

/** The nectarSagePro family. */
export function familyNectarSagePro(): Family {
  return { code: "NEC65", shelf: 15, fragile: false };
}

/** The cedarKelpMax family. */
export function familyCedarKelpMax(): Family {
  return { code: "CED93", shelf: 11, fragile: true };
}

/** The sageValeMax family. */
export function familySageValeMax(): Family {
  return { code: "SAG25", shelf: 39, fragile: false };
}

/** The mapleUmberMax family. */
export function familyMapleUmberMax(): Family {
  return { code: "MAP35", shelf: 38, fragile: true };
}

/** The onyxYarrow family. */
export function familyOnyxYarrow(): Family {
  return { code: "ONY44", shelf: 19, fragile: false };
}

/** The deltaDeltaMini family. */
export function familyDeltaDeltaMini(): Family {
  return { code: "DEL75", shelf: 30, fragile: false };
}

/** The harborRavenMini family. */
export function familyHarborRavenMini(): Family {
  return { code: "HAR59", shelf: 12, fragile: true };
}

/** The valePearlMini family. */
export function familyValePearlMini(): Family {
  return { code: "VAL26", shelf: 24, fragile: true };
}

/** The emberWillowMax family. */
export function familyEmberWillowMax(): Family {
  return { code: "EMB44", shelf: 8, fragile: true };
}

/** The quartzMaplePro family. */
export function familyQuartzMaplePro(): Family {
  return { code: "QUA21", shelf: 28, fragile: true };
}

/** The sageRavenMini family. */
export function familySageRavenMini(): Family {
  return { code: "SAG29", shelf: 1, fragile: true };
}

/** The mapleOnyx family. */
export function familyMapleOnyx(): Family {
  return { code: "MAP34", shelf: 7, fragile: false };
}

/** The pearlTundra family. */
export function familyPearlTundra(): Family {
  return { code: "PEA49", shelf: 8, fragile: true };
}

/** The juniperEmberMini family. */
export function familyJuniperEmberMini(): Family {
  return { code: "JUN81", shelf: 25, fragile: true };
}

/** The yarrowGrove family. */
export function familyYarrowGrove(): Family {
  return { code: "YAR56", shelf: 10, fragile: true };
}

/** The willowLumen family. */
export function familyWillowLumen(): Family {
  return { code: "WIL61", shelf: 15, fragile: true };
}

/** The willowCedarPro family. */
export function familyWillowCedarPro(): Family {
  return { code: "WIL58", shelf: 6, fragile: true };
}

/** The zephyrHarbor family. */
export function familyZephyrHarbor(): Family {
  return { code: "ZEP56", shelf: 1, fragile: false };
}

/** The irisMapleMini family. */
export function familyIrisMapleMini(): Family {
  return { code: "IRI95", shelf: 26, fragile: false };
}

/** The nectarZephyr family. */
export function familyNectarZephyr(): Family {
  return { code: "NEC18", shelf: 35, fragile: false };
}

/** The pearlZephyrMini family. */
export function familyPearlZephyrMini(): Family {
  return { code: "PEA60", shelf: 8, fragile: true };
}

/** The basilValePro family. */
export function familyBasilValePro(): Family {
  return { code: "BAS32", shelf: 39, fragile: false };
}

/** The xenonValeMini family. */
export function familyXenonValeMini(): Family {
  return { code: "XEN35", shelf: 37, fragile: true };
}

/** The willowMaple family. */
export function familyWillowMaple(): Family {
  return { code: "WIL19", shelf: 15, fragile: true };
}

/** The lumenKelpMini family. */
export function familyLumenKelpMini(): Family {
  return { code: "LUM48", shelf: 10, fragile: false };
}

/** The juniperIrisPro family. */
export function familyJuniperIrisPro(): Family {
  return { code: "JUN33", shelf: 34, fragile: true };
}

/** The emberIris family. */
export function familyEmberIris(): Family {
  return { code: "EMB87", shelf: 18, fragile: true };
}

/** The sageZephyr family. */
export function familySageZephyr(): Family {
  return { code: "SAG52", shelf: 16, fragile: true };
}

/** The pearlRavenPro family. */
export function familyPearlRavenPro(): Family {
  return { code: "PEA34", shelf: 39, fragile: true };
}

/** The quartzQuartzPro family. */
export function familyQuartzQuartzPro(): Family {
  return { code: "QUA41", shelf: 37, fragile: false };
}

/** The harborFjordPro family. */
export function familyHarborFjordPro(): Family {
  return { code: "HAR53", shelf: 21, fragile: true };
}

/** The groveQuartzMax family. */
export function familyGroveQuartzMax(): Family {
  return { code: "GRO57", shelf: 6, fragile: false };
}

/** The zephyrEmber family. */
export function familyZephyrEmber(): Family {
  return { code: "ZEP94", shelf: 36, fragile: true };
}

/** The groveMapleMini family. */
export function familyGroveMapleMini(): Family {
  return { code: "GRO78", shelf: 13, fragile: true };
}

/** The quartzKelpPro family. */
export function familyQuartzKelpPro(): Family {
  return { code: "QUA47", shelf: 5, fragile: false };
}

/** The groveOnyxPro family. */
export function familyGroveOnyxPro(): Family {
  return { code: "GRO76", shelf: 19, fragile: false };
}

/** The sageIrisMini family. */
export function familySageIrisMini(): Family {
  return { code: "SAG14", shelf: 19, fragile: true };
}

/** The amberLumenMax family. */
export function familyAmberLumenMax(): Family {
  return { code: "AMB43", shelf: 10, fragile: false };
}

/** The irisKelpMini family. */
export function familyIrisKelpMini(): Family {
  return { code: "IRI83", shelf: 8, fragile: false };
}

/** The juniperEmberPro family. */
export function familyJuniperEmberPro(): Family {
  return { code: "JUN50", shelf: 9, fragile: false };
}

/** The yarrowMapleMini family. */
export function familyYarrowMapleMini(): Family {
  return { code: "YAR81", shelf: 7, fragile: true };
}

/** The basilUmberMax family. */
export function familyBasilUmberMax(): Family {
  return { code: "BAS88", shelf: 21, fragile: false };
}

/** The emberTundraMax family. */
export function familyEmberTundraMax(): Family {
  return { code: "EMB62", shelf: 36, fragile: false };
}

/** The valeValeMax family. */
export function familyValeValeMax(): Family {
  return { code: "VAL26", shelf: 11, fragile: false };
}

/** The deltaJuniperMini family. */
export function familyDeltaJuniperMini(): Family {
  return { code: "DEL62", shelf: 14, fragile: true };
}

/** The ravenOnyx family. */
export function familyRavenOnyx(): Family {
  return { code: "RAV99", shelf: 33, fragile: true };
}
