"""The contributions pages: what players propose (``propose``) and what editors review
(``review``)."""
