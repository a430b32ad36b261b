"""The words of one language that must not show in the other (issue #12), kept by hand with
``docs/glossary.md``.

- ``SPANISH_ONLY``: words a page in English must not show. The glossary keeps a few of the book's
  Spanish terms next to the English word, in parentheses ("Pile (montón)"): those are allowed
  there, and only there (``KEPT_IN_PARENTHESES``).
- ``ENGLISH_ONLY``: words a page in Spanish must not show.
- ``PROPER_NOUNS``: names that are the same in both languages (the game's and the tables' names,
  the language switch's own names), never counted.

Words are compared lower-cased, whole words only. A word that is the same in both languages
("Mayor", "total", "Joker") is in neither list.
"""

SPANISH_ONLY = frozenset("""
de del el la las los y o con para por sin una uno unos unas es son está están hay ya aquí ahora
tu tus su sus mi mis te se le les lo al qué cómo cuándo dónde quién cuál este esta estos estas ese esa
pero más menos muy también todo todos toda todas cada otro otra otros otras nada nadie ninguno ninguna
montón mazo mazos descartes descarte tesoro esbirro esbirros pnj protagonista protagonistas
salud sobriedad aguante confianza azar banca habilidad habilidades rasgo rasgos
éxito fracaso tablas parcial declara técnica técnicas prueba pruebas enfrentada enfrentadas
jugador jugadores jugadora carta cartas personaje personajes campaña campañas sesión sesiones
manos sentidos músculo cabeza pelea apuntar agilidad fuerza maña percepción saber astucia labia
disparo rápido adyacente corto medio largo ady cor lar
revólver escopeta arco cuchillo cuchillos sable caballo cuerda ropa trabajo botella funda
material curandero lazo dinamita
picas corazones tréboles diamantes
apuesta duelo muerte armas mecánicas exploración cobertura montura
robar robo roba elegir elige juega jugar jugada nivel niveles pierde recupera
entrar salir registro clave contraseña usuario correo cuenta guardar cancelar volver siguiente
anterior enviar borrar editar nuevo nueva historial gráficos exportar filtrar equipo catálogo
hoja imprimir invitación invitaciones miembros actividad mesa mesas fase turno ronda
muerto hombre mano bebida bebe trago amenaza caída daño precio daño atención médica
sano herido malherido incapacitado asustado aterrorizado paralizado sobrio achispado borracho
apresar asustar forcejeo
""".split())

# The book's terms the English glossary keeps next to the English word, in parentheses.
KEPT_IN_PARENTHESES = frozenset("""
montón mazo descartes tesoro esbirros pnj la banca azar habilidad
""".split())

ENGLISH_ONLY = frozenset("""
the and of with your you yours his her their them they this that these those what when where who
which is are was were be been not yes or but if then than from into onto for at by on up down
card cards deck decks pile discard discards treasure health morale sobriety endurance confidence
check checks opposed success failure partial tie spades hearts clubs diamonds
player players session sessions campaign campaigns character characters minion minions npc npcs
draw draws drawn choose chose chosen play plays played weapon weapons melee thrown ranged
hands senses muscle head brawl aim agility strength knack perception lore cunning
adjacent short medium long range band cover mount
log sign password email username account save cancel back next previous send delete edit new
history charts export filter equipment catalogue sheet print invite invites members activity
table tables phase turn round dead man hand drink drinks threat fall damage price money
level levels lose loses recover recovers win wins gets take takes give gives keep keeps
""".split())

# The Spanish UI says "tú" (issue #12): "usted" forms, Django's own Spanish among them, must not show.
USTED_FORMS = frozenset("""
usted ustedes introduzca escoja seleccione ingrese asegúrese verifique
""".split())

PROPER_NOUNS = frozenset("""
frontera pocobot nismatch boom palmera english español clementine djamal hartley black rock
""".split())
