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
