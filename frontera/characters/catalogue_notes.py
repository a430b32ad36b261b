"""Player-facing notes, in the game's language, that a new campaign's catalogue starts with.

The rules engine's own notes (``equipment.json``) explain its rulings to developers; these say what a
player needs at the table. The Mayor rewrites them per campaign. Keys the engine adds later fall back
to the engine's note."""

NOTES_ES = {
    "revolver": "Arma inicial a elegir: un revólver o 10 cuchillos.",
    "rifle": "El arma de largo alcance por excelencia.",
    "escopeta": "Brutal de cerca, inútil a lo lejos. Se puede disparar desde la cadera.",
    "arco": "Las flechas no se cuentan: siempre hay a mano.",
    "cuchillo": "Precio por cuchillo. Se lanza hasta Corto; en la mano es un arma cuerpo a cuerpo sin penalizador. "
                "Varios cuchillos permiten varios lanzamientos con Pelea.",
    "tomahawk": "Arma de Pelea: se lanza hasta Corto o se usa en la mano sin penalizador.",
    "sable": "Arma cuerpo a cuerpo: solo Adyacente.",
    "garrote": "Arma cuerpo a cuerpo: solo Adyacente.",
    "latigo": "Permite varios ataques de Pelea, como varias armas arrojadizas.",
    "lazo": "Solo para Apresar: no hace daño.",
    "caballo": "Todo personaje empieza con uno; el precio es para caballos de más.",
    "ropa_de_trabajo": "Una carta extra en las pruebas de Agilidad.",
    "material_de_curandero": "Una carta extra para dar atención médica.",
    "funda_de_cuchillos": "Con los cuchillos enfundados al empezar el turno, conservas el movimiento de 3 m al atacar con ellos.",
    "ganzuas": "Una carta extra en las pruebas de Manos (Maña) para abrir cerraduras.",
    "cuerda": "Quince metros de cuerda.",
    "botella_de_whisky": "Cuidado con la Sobriedad antes de abrirla.",
}

# The same entries in English (issue #12): every catalogue entry carries both languages; the page
# shows the reader's, or the other one where the Mayor left it empty.
NAMES_EN = {
    "revolver": "Revolver", "rifle": "Rifle", "escopeta": "Shotgun", "arco": "Bow", "cuchillo": "Knife",
    "tomahawk": "Tomahawk", "sable": "Sabre", "garrote": "Club", "latigo": "Whip", "lazo": "Lasso",
    "caballo": "Horse", "ropa_de_trabajo": "Work clothes", "material_de_curandero": "Healer's kit",
    "funda_de_cuchillos": "Knife holster", "ganzuas": "Lockpicks", "cuerda": "Rope",
    "botella_de_whisky": "Bottle of whisky",
}
NOTES_EN = {
    "revolver": "Starting weapon to choose: a revolver or 10 knives.",
    "rifle": "The long-range weapon above all others.",
    "escopeta": "Brutal up close, useless far away. It can be fired from the hip.",
    "arco": "Arrows are not counted: there are always some at hand.",
    "cuchillo": "Price per knife. Thrown up to short range; in the hand it is a melee weapon with no penalty. "
                "Several knives allow several throws with Brawl.",
    "tomahawk": "A Brawl weapon: thrown up to short range or used in the hand with no penalty.",
    "sable": "Melee weapon: adjacent range only.",
    "garrote": "Melee weapon: adjacent range only.",
    "latigo": "Allows several Brawl attacks, like several thrown weapons.",
    "lazo": "Only to Seize: it does no damage.",
    "caballo": "Every character starts with one; the price is for extra horses.",
    "ropa_de_trabajo": "One extra card on Agility checks.",
    "material_de_curandero": "One extra card to give medical attention.",
    "funda_de_cuchillos": "With the knives holstered at the start of the turn, you keep your 3 m move when "
                          "attacking with them.",
    "ganzuas": "One extra card on Hands (Knack) checks to open locks.",
    "cuerda": "Fifteen metres of rope.",
    "botella_de_whisky": "Mind your Sobriety before opening it.",
}
